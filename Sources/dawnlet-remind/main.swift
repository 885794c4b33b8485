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

exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
