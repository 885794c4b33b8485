#ifndef DAWNLET_CSYSTEMD_SHIM_H
#define DAWNLET_CSYSTEMD_SHIM_H
#include <dlfcn.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

/* libsystemd is not linked: only `serve` uses it (its event loop, the user bus,
   sd_notify), and loading it with the six libraries it needs (libgcrypt, liblzma, libzstd,
   liblz4, libcap, libgpg-error) cost every other command some 0.35 ms of its start, an eighth
   of `today`'s. The functions dawnlet-remind uses arrive through this table, filled once by
   dawnlet_systemd_load from dlopen("libsystemd.so.0"). Each field has the type of the function
   it holds (checked here, by the C compiler, against libsystemd's own prototypes). A function
   added goes at the end, and Systemd.swift (which copies the table) is changed with it: an
   incremental build does not recompile Swift files for a change to this header alone, and one
   compiled against the old table would fill or read it at the old offsets. */
#define DAWNLET_SYSTEMD_FUNCTIONS(X) \
    X(sd_bus_attach_event) \
    X(sd_bus_call) \
    X(sd_bus_call_async) \
    X(sd_bus_error_free) \
    X(sd_bus_error_get_errno) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_is_open) \
    X(sd_bus_match_signal) \
    X(sd_bus_message_append_basic) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_exit_container) \
    X(sd_bus_message_get_error) \
    X(sd_bus_message_get_sender) \
    X(sd_bus_message_is_method_error) \
    X(sd_bus_message_new_method_call) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_read_basic) \
    X(sd_bus_message_skip) \
    X(sd_bus_message_unref) \
    X(sd_bus_open_user) \
    X(sd_bus_slot_set_destroy_callback) \
    X(sd_bus_slot_set_floating) \
    X(sd_bus_slot_unref) \
    X(sd_event_add_io) \
    X(sd_event_add_signal) \
    X(sd_event_add_time) \
    X(sd_event_exit) \
    X(sd_event_loop) \
    X(sd_event_new) \
    X(sd_event_set_watchdog) \
    X(sd_event_source_set_destroy_callback) \
    X(sd_event_source_set_enabled) \
    X(sd_event_source_set_floating) \
    X(sd_event_source_set_io_events) \
    X(sd_event_source_set_time) \
    X(sd_event_source_unref) \
    X(sd_event_unref) \
    X(sd_notify) \
    X(sd_event_source_set_priority) \
    X(sd_bus_open_system) \
    X(sd_bus_add_match)

/* Non-null: once loaded, every field holds its function, so no call site unwraps one. */
#define DAWNLET_SYSTEMD_FIELD(name) __typeof__(&name) _Nonnull name;
struct dawnlet_systemd {
    DAWNLET_SYSTEMD_FUNCTIONS(DAWNLET_SYSTEMD_FIELD)
};
#undef DAWNLET_SYSTEMD_FIELD

/* The table, filled once; NULL when libsystemd or one of its functions is missing, with
   `*problem` naming what (or dlerror()'s words). */
static inline const struct dawnlet_systemd *_Nullable dawnlet_systemd_load(const char *_Nullable *_Nonnull problem) {
    static struct dawnlet_systemd table;
    void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *problem = dlerror();
        return 0;
    }
#define DAWNLET_SYSTEMD_LOAD(name) \
    if (!(table.name = (__typeof__(&name))dlsym(library, #name))) { \
        *problem = #name; \
        return 0; \
    }
    DAWNLET_SYSTEMD_FUNCTIONS(DAWNLET_SYSTEMD_LOAD)
#undef DAWNLET_SYSTEMD_LOAD
    return &table;
}
#endif
