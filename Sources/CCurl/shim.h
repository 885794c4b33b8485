#ifndef DAWNLET_CCURL_SHIM_H
#define DAWNLET_CCURL_SHIM_H
#include <curl/curl.h>

/* libcurl is not linked: DawnletSystem.Curl loads it with dlopen the first time mail is sent, so
   the runner does not carry libcurl and the thirty libraries behind it (TLS, Kerberos, LDAP, …)
   while it waits. The functions it needs arrive as pointers from dlsym.

   curl_easy_setopt and curl_easy_getinfo are variadic: Swift can neither call them nor hold
   their type. One typed wrapper per argument kind calls the pointer with its real C type. */
typedef CURLcode (*dawnlet_curl_setopt_fn)(CURL *, CURLoption, ...);
typedef CURLcode (*dawnlet_curl_getinfo_fn)(CURL *, CURLINFO, ...);

static inline CURLcode dawnlet_curl_setopt_long(void *setopt, CURL *handle, CURLoption option, long value) {
    return ((dawnlet_curl_setopt_fn)setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_string(void *setopt, CURL *handle, CURLoption option, const char *value) {
    return ((dawnlet_curl_setopt_fn)setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_pointer(void *setopt, CURL *handle, CURLoption option, void *value) {
    return ((dawnlet_curl_setopt_fn)setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_slist(void *setopt, CURL *handle, CURLoption option, struct curl_slist *value) {
    return ((dawnlet_curl_setopt_fn)setopt)(handle, option, value);
}
static inline CURLcode dawnlet_curl_setopt_read_function(void *setopt, CURL *handle, curl_read_callback callback) {
    return ((dawnlet_curl_setopt_fn)setopt)(handle, CURLOPT_READFUNCTION, callback);
}
static inline CURLcode dawnlet_curl_setopt_debug_function(void *setopt, CURL *handle, curl_debug_callback callback) {
    return ((dawnlet_curl_setopt_fn)setopt)(handle, CURLOPT_DEBUGFUNCTION, callback);
}
static inline CURLcode dawnlet_curl_getinfo_long(void *getinfo, CURL *handle, CURLINFO info, long *value) {
    return ((dawnlet_curl_getinfo_fn)getinfo)(handle, info, value);
}

/* curl_multi_setopt is variadic too: the same kind of wrapper, for the four options the
   event-loop sender sets (DawnletSystem.SMTPSender). */
typedef CURLMcode (*dawnlet_curl_multi_setopt_fn)(CURLM *, CURLMoption, ...);

static inline CURLMcode dawnlet_curl_multi_setopt_socket_function(void *setopt, CURLM *multi, curl_socket_callback callback) {
    return ((dawnlet_curl_multi_setopt_fn)setopt)(multi, CURLMOPT_SOCKETFUNCTION, callback);
}
static inline CURLMcode dawnlet_curl_multi_setopt_socket_data(void *setopt, CURLM *multi, void *data) {
    return ((dawnlet_curl_multi_setopt_fn)setopt)(multi, CURLMOPT_SOCKETDATA, data);
}
static inline CURLMcode dawnlet_curl_multi_setopt_timer_function(void *setopt, CURLM *multi, curl_multi_timer_callback callback) {
    return ((dawnlet_curl_multi_setopt_fn)setopt)(multi, CURLMOPT_TIMERFUNCTION, callback);
}
static inline CURLMcode dawnlet_curl_multi_setopt_timer_data(void *setopt, CURLM *multi, void *data) {
    return ((dawnlet_curl_multi_setopt_fn)setopt)(multi, CURLMOPT_TIMERDATA, data);
}

/* A CURLMsg's result (the union member data.result) needs no accessor: Swift imports the union
   as a field `data` with a `result` property, so `message.pointee.data.result` reads it. */
#endif
