#ifndef DAWNLET_CSYSTEMD_SHIM_H
#define DAWNLET_CSYSTEMD_SHIM_H
/* Without this, sd_journal_send* are macros that add CODE_FILE/CODE_LINE fields. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>
#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <fcntl.h>
#include <unistd.h>

/* sd_notify is not variadic, but the status text we send is built in Swift; this keeps one entry point. */
static inline int dawnlet_sd_notify(int unset_environment, const char *state) {
    return sd_notify(unset_environment, state);
}

/* pipe2 is not exported by the Glibc module. */
static inline int dawnlet_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
#endif
