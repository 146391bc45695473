/* clickhouse_curl.h: libcurl, loaded when a ClickHouse URL is first used. Linked, it and
 * the two dozen libraries it needs (OpenSSL, Kerberos, LDAP, nghttp2...) were mapped and
 * relocated at the start of every kifu command, 4.6 ms of CPU each, for the one backend
 * that uses it. Only its header is needed to build; the library is libcurl.so.4 (Debian's
 * libcurl4), opened with dlopen once for the whole process. */
#ifndef KIFU_CLICKHOUSE_CURL_H
#define KIFU_CLICKHOUSE_CURL_H

#include <curl/curl.h>

#include "kifu.h"

/* The soname opened: libcurl's ABI since 7.16 (2006). */
#define KIFU__CURL_SONAME "libcurl.so.4"

/* The functions of libcurl kifu calls, named as curl_NAME is. */
typedef struct kifu__curl_api {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *c, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *c);
    CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
    void (*easy_cleanup)(CURL *c);
    const char *(*easy_strerror)(CURLcode rc);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
    void (*slist_free_all)(struct curl_slist *list);
    CURLSH *(*share_init)(void);
    CURLSHcode (*share_setopt)(CURLSH *sh, CURLSHoption option, ...);
    CURLSHcode (*share_cleanup)(CURLSH *sh);
} kifu__curl_api;

/* libcurl's functions, the library loaded and started (curl_global_init) at the first
 * call, once for every thread; never unloaded (a library cannot know that its caller is
 * done with it). NULL when it cannot be loaded: err says why, naming the library. */
const kifu__curl_api *kifu__curl(kifu_error *err);

/* The share handle every easy handle joins: TLS sessions (a new connection to a server
 * resumes the last one's session instead of a full handshake) and DNS answers, locked for
 * threads. NULL when libcurl has none to give (every handle then works alone). Valid
 * after kifu__curl succeeded. */
CURLSH *kifu__curl_share(void);

/* Load soname into api: 0, or -1 with err naming soname and dlerror's text. The handle
 * stays open on success. Separate from kifu__curl so that a test can load a library that
 * is not there. */
int kifu__curl_load(const char *soname, kifu__curl_api *api, kifu_error *err);

#endif
