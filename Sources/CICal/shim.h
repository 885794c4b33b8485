#ifndef DAWNLET_CICAL_SHIM_H
#define DAWNLET_CICAL_SHIM_H
#include <libical/ical.h>
#endif
