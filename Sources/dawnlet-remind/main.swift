import DawnletCLI
import Glibc

// A command that closes its stdin before reading a whole message (sendmail) must be an EPIPE
// for the writer, not the end of dawnlet-remind. Children get default dispositions back.
signal(SIGPIPE, SIG_IGN)

exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
