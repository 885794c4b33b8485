#ifndef DAWNLET_CLINUX_SHIM_H
#define DAWNLET_CLINUX_SHIM_H
/* Linux and glibc interfaces the Glibc module does not export. Header-only: nothing to link. */
#define _GNU_SOURCE 1
#include <fcntl.h>
#include <malloc.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>
#include <unistd.h>

static inline int dawnlet_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
#endif
