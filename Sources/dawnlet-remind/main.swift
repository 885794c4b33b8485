import DawnletCLI
import Foundation

// `serve` takes SIGTERM, SIGINT and SIGHUP as sd-event sources, which needs them blocked in every
// thread: block them here, before any thread exists (shared/PLATFORM-NOTES.md).
if CommandLine.arguments.dropFirst().contains("serve") {
    var signals = sigset_t()
    sigemptyset(&signals)
    for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&signals, signal) }
    pthread_sigmask(SIG_BLOCK, &signals, nil)
}

// A command that closes its stdin before reading a whole message (sendmail) must be an EPIPE
// for the writer, not the end of dawnlet-remind. Children get default dispositions back.
signal(SIGPIPE, SIG_IGN)

exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
