#ifndef DAWNLET_CICAL_SHIM_H
#define DAWNLET_CICAL_SHIM_H
#include <dlfcn.h>
#include <libical/ical.h>

/* libical is not linked: it brings ICU and libstdc++ (~3.5 MB resident), which a runner without
   calendars should not carry. The functions dawnlet-remind uses arrive through this table,
   filled once by dawnlet_ical_load from dlopen("libical.so.3"). Each field has the type of the
   function it holds (checked here, by the C compiler, against libical's own prototypes). */
#define DAWNLET_ICAL_FUNCTIONS(X) \
    X(icalerror_set_errors_are_fatal) \
    X(icalparser_parse_string) \
    X(icalcomponent_free) \
    X(icalcomponent_isa) \
    X(icalcomponent_count_errors) \
    X(icalcomponent_get_first_component) \
    X(icalcomponent_get_next_component) \
    X(icalcomponent_remove_component) \
    X(icalcomponent_add_component) \
    X(icalcomponent_get_first_property) \
    X(icalcomponent_get_next_property) \
    X(icalcomponent_get_dtstart) \
    X(icalcomponent_get_dtend) \
    X(icalcomponent_get_due) \
    X(icalcomponent_get_duration) \
    X(icalcomponent_get_summary) \
    X(icalcomponent_get_uid) \
    X(icalcomponent_get_recurrenceid) \
    X(icalcomponent_get_status) \
    X(icalproperty_get_rrule) \
    X(icalproperty_get_value_as_string) \
    X(icalproperty_get_repeat) \
    X(icalproperty_get_duration) \
    X(icalcomponent_get_sequence) \
    X(icalcomponent_get_dtstamp) \
    X(icalproperty_get_lastmodified) \
    X(icalparameter_get_range) \
    X(icalparameter_as_ical_string) \
    X(icalproperty_get_acknowledged) \
    X(icalproperty_get_x_name) \
    X(icalproperty_get_x) \
    X(icalproperty_get_relatedto) \
    X(icalproperty_get_exdate) \
    X(icalproperty_get_rdate) \
    X(icalproperty_get_trigger) \
    X(icalproperty_get_xlicerror) \
    X(icalproperty_get_first_parameter) \
    X(icalparameter_get_related) \
    X(icalparameter_get_tzid) \
    X(icalproperty_get_recurrenceid) \
    X(icalproperty_get_tzid) \
    X(icalcomponent_get_timezone) \
    X(icaltimezone_get_builtin_timezone) \
    X(icaltimezone_get_tzid) \
    X(icaltimezone_get_location) \
    X(icalrecur_iterator_new) \
    X(icalrecur_iterator_next) \
    X(icalrecur_iterator_free) \
    X(icalrecur_iterator_set_start) \
    X(icalrecurrencetype_from_string) \
    X(icaltime_as_timet_with_zone) \
    X(icaltime_is_null_time) \
    X(icaltime_null_date) \
    X(icaltimezone_get_utc_timezone) \
    X(icaldurationtype_as_int)

/* Non-null: once loaded, every field holds its function, so no call site unwraps one. */
#define DAWNLET_ICAL_FIELD(name) __typeof__(&name) _Nonnull name;
struct dawnlet_ical {
    DAWNLET_ICAL_FUNCTIONS(DAWNLET_ICAL_FIELD)
};
#undef DAWNLET_ICAL_FIELD

/* The table, filled once; NULL when libical or one of its functions is missing, with `*problem`
   naming what (or dlerror()'s words). */
static inline const struct dawnlet_ical *_Nullable dawnlet_ical_load(const char *_Nullable *_Nonnull problem) {
    static struct dawnlet_ical table;
    void *library = dlopen("libical.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *problem = dlerror();
        return 0;
    }
#define DAWNLET_ICAL_LOAD(name) \
    if (!(table.name = (__typeof__(&name))dlsym(library, #name))) { \
        *problem = #name; \
        return 0; \
    }
    DAWNLET_ICAL_FUNCTIONS(DAWNLET_ICAL_LOAD)
#undef DAWNLET_ICAL_LOAD
    return &table;
}
#endif
