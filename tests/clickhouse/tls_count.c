/* tls_count.c: an LD_PRELOAD library for tls.sh that counts the TLS handshakes a process
 * makes as a client, full and resumed (OpenSSL's SSL_connect and SSL_session_reused), and
 * appends "full N resumed M" to the file $KIFU_TLS_COUNT at exit. libssl is found where
 * libcurl's dlopen put it (a local scope RTLD_NEXT does not see), or after this library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct ssl_st SSL;
static int full, resumed;

int SSL_connect(SSL *s);
int SSL_connect(SSL *s)
{
    static int (*real)(SSL *);
    static int (*reused)(const SSL *);
    if (!real) {
        void *ssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_NOLOAD);
        void *from = ssl ? ssl : RTLD_NEXT;
        *(void **)&real = dlsym(from, "SSL_connect");
        *(void **)&reused = dlsym(from, "SSL_session_reused");
        if (!real || !reused) {
            fprintf(stderr, "tls_count: no SSL_connect in libssl.so.3\n");
            abort();
        }
    }
    int rc = real(s);
    if (rc == 1)
        *(reused(s) ? &resumed : &full) += 1;
    return rc;
}

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("KIFU_TLS_COUNT");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, "full %d resumed %d\n", full, resumed);
        fclose(f);
    }
}
