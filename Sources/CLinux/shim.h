#ifndef DAWNLET_CLINUX_SHIM_H
#define DAWNLET_CLINUX_SHIM_H
/* Linux and glibc interfaces the Glibc module does not export. Header-only: nothing to link.
 * No _GNU_SOURCE here: it would change struct layouts against the other C modules (fd_set). */
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

/* Declared by <unistd.h> only under _GNU_SOURCE. */
extern int pipe2(int fds[2], int flags);
static inline int dawnlet_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }

/* A file descriptor that becomes readable when the process exits (Linux 5.3); -1 and errno otherwise. */
static inline int dawnlet_pidfd_open(pid_t pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }
/* Whether `sig`'s disposition is SIG_IGN: the one disposition a program keeps across exec (a
 * handler becomes SIG_DFL there). 0 for a signal that has no disposition to ask (glibc's own). */
static inline int dawnlet_signal_ignored(int sig) {
    struct sigaction action;
    return sigaction(sig, NULL, &action) == 0 && !(action.sa_flags & SA_SIGINFO) && action.sa_handler == SIG_IGN;
}
/* A hint that `p` is read soon: the planner's items are visited out of their order. */
static inline void dawnlet_prefetch(const void *p) { __builtin_prefetch(p); }

/* The commit the binary was built from (`git describe --always --dirty`), set by the Makefile's
 * release builds with -Xcc -DDAWNLET_COMMIT='"..."'; empty when it was not (a plain `swift build`). */
#ifndef DAWNLET_COMMIT
#define DAWNLET_COMMIT ""
#endif
static inline const char *dawnlet_build_commit(void) { return DAWNLET_COMMIT; }
#endif
