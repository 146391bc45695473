/* clickhouse_curl.c: libcurl loaded with dlopen at the first ClickHouse URL, its
 * functions resolved into a table (clickhouse_curl.h says why it is not linked), and the
 * share handle that keeps TLS sessions across the easy handles. */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "index/clickhouse_curl.h"
#include "kifu_private.h"

/* Each slot of kifu__curl_api and the symbol that fills it. */
static const struct {
    const char *name;
    size_t at;
} symbols[] = {
    {"curl_global_init", offsetof(kifu__curl_api, global_init)},
    {"curl_easy_init", offsetof(kifu__curl_api, easy_init)},
    {"curl_easy_setopt", offsetof(kifu__curl_api, easy_setopt)},
    {"curl_easy_perform", offsetof(kifu__curl_api, easy_perform)},
    {"curl_easy_getinfo", offsetof(kifu__curl_api, easy_getinfo)},
    {"curl_easy_cleanup", offsetof(kifu__curl_api, easy_cleanup)},
    {"curl_easy_strerror", offsetof(kifu__curl_api, easy_strerror)},
    {"curl_slist_append", offsetof(kifu__curl_api, slist_append)},
    {"curl_slist_free_all", offsetof(kifu__curl_api, slist_free_all)},
    {"curl_share_init", offsetof(kifu__curl_api, share_init)},
    {"curl_share_setopt", offsetof(kifu__curl_api, share_setopt)},
    {"curl_share_cleanup", offsetof(kifu__curl_api, share_cleanup)},
};

int kifu__curl_load(const char *soname, kifu__curl_api *api, kifu_error *err)
{
    /* RTLD_LOCAL: libcurl's symbols (and OpenSSL's under it) stay out of the caller's
     * namespace, which may hold another TLS library. */
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        return kifu__error(
            err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL,
            "cannot load %s, which the index on ClickHouse needs (Debian's "
            "libcurl4): %s",
            soname, why ? why : "unknown error");
    }
    for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        dlerror();
        void *f = dlsym(lib, symbols[i].name);
        if (!f) {
            /* (dlerror's text lives until the next dl call: used before dlclose) */
            const char *why = dlerror();
            kifu__error(err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL,
                        "%s is not the libcurl the index on ClickHouse needs: %s", soname,
                        why ? why : symbols[i].name);
            dlclose(lib);
            return -1;
        }
        /* An object pointer into a function pointer's slot: what POSIX's dlsym promises
         * to work, without the cast ISO C leaves undefined. */
        memcpy((char *)api + symbols[i].at, &f, sizeof f);
    }
    return 0;
}

static kifu__curl_api api;
static kifu_error load_err;
static CURLSH *share;
/* One lock per kind of shared data, as libcurl asks (CURL_LOCK_DATA_LAST kinds). */
static pthread_mutex_t locks[CURL_LOCK_DATA_LAST];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void share_lock(CURL *c, curl_lock_data data, curl_lock_access access, void *ctx)
{
    (void)c, (void)access, (void)ctx;
    pthread_mutex_lock(&locks[data]);
}

static void share_unlock(CURL *c, curl_lock_data data, void *ctx)
{
    (void)c, (void)ctx;
    pthread_mutex_unlock(&locks[data]);
}

/* A share of TLS sessions and DNS answers. Connections are not shared: a write closes
 * its server's kept connection and opens a new one (clickhouse_http.c), which a shared
 * connection cache would keep open. Left NULL when libcurl refuses, as sharing only
 * saves time. */
static void make_share(void)
{
    for (int i = 0; i < CURL_LOCK_DATA_LAST; i++)
        pthread_mutex_init(&locks[i], NULL);
    CURLSH *sh = api.share_init();
    if (sh && (api.share_setopt(sh, CURLSHOPT_LOCKFUNC, share_lock) != CURLSHE_OK ||
               api.share_setopt(sh, CURLSHOPT_UNLOCKFUNC, share_unlock) != CURLSHE_OK ||
               api.share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION) !=
                   CURLSHE_OK ||
               api.share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS) != CURLSHE_OK)) {
        api.share_cleanup(sh);
        sh = NULL;
    }
    share = sh;
}

/* Loaded, started and shared once for every thread: curl_global_init is not thread-safe
 * in every libcurl. */
static void load(void)
{
    if (kifu__curl_load(KIFU__CURL_SONAME, &api, &load_err))
        return;
    CURLcode rc = api.global_init(CURL_GLOBAL_DEFAULT);
    if (rc != CURLE_OK) {
        kifu__error(&load_err, KIFU_ERR_IO, 0, 0, 0, NULL, NULL,
                    "cannot start libcurl: %s", api.easy_strerror(rc));
        return;
    }
    make_share();
}

const kifu__curl_api *kifu__curl(kifu_error *err)
{
    pthread_once(&once, load);
    if (load_err.code) {
        if (err && !err->code)
            *err = load_err;
        return NULL;
    }
    return &api;
}

CURLSH *kifu__curl_share(void)
{
    return share;
}
