import CLinux
import DawnletCLI
import Glibc

// A command that closes its stdin before reading a whole message (sendmail) must be an EPIPE
// for the writer, not the end of dawnlet-remind. Children get default dispositions back.
signal(SIGPIPE, SIG_IGN)

// At most two malloc arenas: dawnlet-remind runs one thread, and two or three while it plans
// (the next days planned while these are written). glibc's default of eight per core gives each
// short-lived planning thread an arena of its own, whose freed memory stays resident: a month's
// plan of a large database peaks several MiB higher with them.
mallopt(M_ARENA_MAX, 2)

exit(CommandLineTool.main(Array(CommandLine.arguments.dropFirst())))
