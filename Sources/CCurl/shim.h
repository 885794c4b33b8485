#ifndef DAWNLET_CCURL_SHIM_H
#define DAWNLET_CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>

/* libcurl is not linked: DawnletSystem.Curl loads it the first time mail is sent, so the runner
   does not carry libcurl and the thirty libraries behind it (TLS, Kerberos, LDAP, …) while it
   waits. The functions dawnlet-remind uses arrive through this table, filled once by
   dawnlet_curl_load from dlopen("libcurl.so.4"). Each field has the type of the function it
   holds (checked here, by the C compiler, against libcurl's own prototypes). */
#define DAWNLET_CURL_FUNCTIONS(X) \
    X(curl_global_init) \
    X(curl_easy_init) \
    X(curl_easy_cleanup) \
    X(curl_easy_setopt) \
    X(curl_easy_getinfo) \
    X(curl_easy_strerror) \
    X(curl_slist_append) \
    X(curl_slist_free_all) \
    X(curl_multi_init) \
    X(curl_multi_cleanup) \
    X(curl_multi_setopt) \
    X(curl_multi_add_handle) \
    X(curl_multi_remove_handle) \
    X(curl_multi_socket_action) \
    X(curl_multi_info_read) \
    X(curl_multi_strerror) \
    X(curl_url) \
    X(curl_url_set) \
    X(curl_url_get) \
    X(curl_url_cleanup) \
    X(curl_url_strerror) \
    X(curl_free)

/* Non-null: once loaded, every field holds its function, so no call site unwraps one. */
#define DAWNLET_CURL_FIELD(name) __typeof__(&name) _Nonnull name;
struct dawnlet_curl {
    DAWNLET_CURL_FUNCTIONS(DAWNLET_CURL_FIELD)
};
#undef DAWNLET_CURL_FIELD

/* The table, filled once; NULL when libcurl or one of its functions is missing, with `*problem`
   naming what (or dlerror()'s words). */
static inline const struct dawnlet_curl *_Nullable dawnlet_curl_load(const char *_Nullable *_Nonnull problem) {
    static struct dawnlet_curl table;
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *problem = dlerror();
        return 0;
    }
#define DAWNLET_CURL_LOAD(name) \
    if (!(table.name = (__typeof__(&name))dlsym(library, #name))) { \
        *problem = #name; \
        return 0; \
    }
    DAWNLET_CURL_FUNCTIONS(DAWNLET_CURL_LOAD)
#undef DAWNLET_CURL_LOAD
    return &table;
}

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic: Swift can neither call
   them nor hold their type (their fields above are not visible from Swift). One typed wrapper per
   argument kind calls the table's function with its real C type. The name is in parentheses so
   that curl's type-checking macros of the same name, where a compiler enables them, stay out. */
static inline CURLcode dawnlet_curl_setopt_long(const struct dawnlet_curl *_Nonnull curl, CURL *_Nonnull handle, CURLoption option, long value) {
    return (curl->curl_easy_setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_string(const struct dawnlet_curl *_Nonnull curl, CURL *_Nonnull handle, CURLoption option,
                                                  const char *_Nonnull value) {
    return (curl->curl_easy_setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_pointer(const struct dawnlet_curl *_Nonnull curl, CURL *_Nonnull handle, CURLoption option,
                                                   void *_Nullable value) {
    return (curl->curl_easy_setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_slist(const struct dawnlet_curl *_Nonnull curl, CURL *_Nonnull handle, CURLoption option,
                                                 struct curl_slist *_Nullable value) {
    return (curl->curl_easy_setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_read_function(const struct dawnlet_curl *_Nonnull curl, CURL *_Nonnull handle,
                                                         curl_read_callback _Nonnull callback) {
    return (curl->curl_easy_setopt)(handle, CURLOPT_READFUNCTION, callback);
}
static inline CURLcode dawnlet_curl_setopt_debug_function(const struct dawnlet_curl *_Nonnull curl, CURL *_Nonnull handle,
                                                          curl_debug_callback _Nonnull callback) {
    return (curl->curl_easy_setopt)(handle, CURLOPT_DEBUGFUNCTION, callback);
}
static inline CURLcode dawnlet_curl_getinfo_long(const struct dawnlet_curl *_Nonnull curl, CURL *_Nonnull handle, CURLINFO info,
                                                 long *_Nonnull value) {
    return (curl->curl_easy_getinfo)(handle, info, value);
}

/* The four multi options the event-loop sender sets (DawnletSystem.SMTPSender). */
static inline CURLMcode dawnlet_curl_multi_setopt_socket_function(const struct dawnlet_curl *_Nonnull curl, CURLM *_Nonnull multi,
                                                                  curl_socket_callback _Nonnull callback) {
    return (curl->curl_multi_setopt)(multi, CURLMOPT_SOCKETFUNCTION, callback);
}
static inline CURLMcode dawnlet_curl_multi_setopt_socket_data(const struct dawnlet_curl *_Nonnull curl, CURLM *_Nonnull multi,
                                                              void *_Nullable data) {
    return (curl->curl_multi_setopt)(multi, CURLMOPT_SOCKETDATA, data);
}
static inline CURLMcode dawnlet_curl_multi_setopt_timer_function(const struct dawnlet_curl *_Nonnull curl, CURLM *_Nonnull multi,
                                                                 curl_multi_timer_callback _Nonnull callback) {
    return (curl->curl_multi_setopt)(multi, CURLMOPT_TIMERFUNCTION, callback);
}
static inline CURLMcode dawnlet_curl_multi_setopt_timer_data(const struct dawnlet_curl *_Nonnull curl, CURLM *_Nonnull multi,
                                                             void *_Nullable data) {
    return (curl->curl_multi_setopt)(multi, CURLMOPT_TIMERDATA, data);
}

/* A CURLMsg's result (the union member data.result) needs no accessor: Swift imports the union
   as a field `data` with a `result` property, so `message.pointee.data.result` reads it. */
#endif
