/* test_curl_load.c: libcurl opened with dlopen (src/index/clickhouse_curl.c): a library
 * that is not there, or is not libcurl, is a clear error naming it and saying why (never
 * a crash); libcurl.so.4 gives every function, once for every thread, with a share of TLS
 * sessions. tests/cli/curl_lazy.sh checks that nothing else loads it. */
#include <pthread.h>
#include <string.h>

#include "harness.h"
#include "index/clickhouse_curl.h"
#include "kifu.h"

TEST(missing_library_named_with_the_loaders_reason)
{
    kifu__curl_api api;
    memset(&api, 0, sizeof api);
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__curl_load("libkifu-no-such-curl.so.4", &api, &err), -1);
    CHECK(err.code != 0);
    CHECK(strstr(err.message, "cannot load libkifu-no-such-curl.so.4") != NULL);
    /* dlerror's own text follows */
    CHECK(strstr(err.message, "cannot open shared object file") != NULL);
    CHECK(api.easy_init == NULL);
}

TEST(library_without_curl_refused)
{
    kifu__curl_api api;
    memset(&api, 0, sizeof api);
    kifu_error err;
    kifu_error_clear(&err);
    CHECK_INT(kifu__curl_load("libc.so.6", &api, &err), -1);
    CHECK(strstr(err.message, "libc.so.6 is not the libcurl") != NULL);
    CHECK(strstr(err.message, "curl_global_init") != NULL);
}

static const kifu__curl_api *got[4];

static void *load(void *arg)
{
    (void)arg;
    static int next;
    static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    const kifu__curl_api *a = kifu__curl(NULL);
    pthread_mutex_lock(&m);
    got[next++] = a;
    pthread_mutex_unlock(&m);
    return NULL;
}

TEST(libcurl_loaded_once_for_every_thread)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, load, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    kifu_error err;
    kifu_error_clear(&err);
    const kifu__curl_api *a = kifu__curl(&err);
    CHECK(a != NULL);
    if (!a) {
        printf("  %s\n", err.message);
        return;
    }
    for (int i = 0; i < 4; i++)
        CHECK(got[i] == a);
    CHECK(a->easy_init && a->easy_setopt && a->easy_perform && a->easy_getinfo &&
          a->easy_cleanup && a->slist_append && a->slist_free_all && a->share_init &&
          a->share_setopt && a->share_cleanup && a->global_init);
    CHECK_STR(a->easy_strerror(CURLE_OK), "No error");
    CHECK(kifu__curl_share() != NULL);
    /* a handle made through the table works with the share */
    CURL *c = a->easy_init();
    CHECK(c != NULL);
    CHECK_INT(a->easy_setopt(c, CURLOPT_SHARE, kifu__curl_share()), CURLE_OK);
    a->easy_cleanup(c);
}

int main(void)
{
    RUN(missing_library_named_with_the_loaders_reason);
    RUN(library_without_curl_refused);
    RUN(libcurl_loaded_once_for_every_thread);
    return t_finish();
}
