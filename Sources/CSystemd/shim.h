#ifndef DAWNLET_CSYSTEMD_SHIM_H
#define DAWNLET_CSYSTEMD_SHIM_H
/* Without this, sd_journal_send* are macros that add CODE_FILE/CODE_LINE fields. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>
#endif
