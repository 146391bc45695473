/* serve_mhd.c: libmicrohttpd opened with dlopen when `kifu serve` starts, its functions
 * resolved into serve_mhd (serve_mhd.h says why it is not linked). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "serve_mhd.h"

serve_mhd_api serve_mhd;

/* Each slot of serve_mhd_api and the symbol that fills it. */
static const struct {
    const char *name;
    size_t at;
} symbols[] = {
    {"MHD_start_daemon", offsetof(serve_mhd_api, start_daemon)},
    {"MHD_stop_daemon", offsetof(serve_mhd_api, stop_daemon)},
    {"MHD_get_daemon_info", offsetof(serve_mhd_api, get_daemon_info)},
    {"MHD_create_response_from_buffer",
     offsetof(serve_mhd_api, create_response_from_buffer)},
    {"MHD_add_response_header", offsetof(serve_mhd_api, add_response_header)},
    {"MHD_queue_response", offsetof(serve_mhd_api, queue_response)},
    {"MHD_destroy_response", offsetof(serve_mhd_api, destroy_response)},
    {"MHD_get_connection_values", offsetof(serve_mhd_api, get_connection_values)},
    {"MHD_lookup_connection_value", offsetof(serve_mhd_api, lookup_connection_value)},
};

/* Never called, never emitted (static inline, unused): its initializer makes the compiler
 * check each slot's type against the header's declaration of the function. */
static inline serve_mhd_api serve_mhd_types(void)
{
    serve_mhd_api a = {MHD_start_daemon,           MHD_stop_daemon,
                       MHD_get_daemon_info,        MHD_create_response_from_buffer,
                       MHD_add_response_header,    MHD_queue_response,
                       MHD_destroy_response,       MHD_get_connection_values,
                       MHD_lookup_connection_value};
    return a;
}

int serve_mhd_load(const char *soname, char *why, size_t n)
{
    /* RTLD_LOCAL: its symbols (gnutls's under it) stay out of the global namespace, where
     * libcurl may bring OpenSSL for an index on ClickHouse. */
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, n,
                 "cannot load %s, which kifu serve needs (Debian's libmicrohttpd12): %s",
                 soname, e ? e : "unknown error");
        return -1;
    }
    serve_mhd_api api;
    for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++) {
        dlerror();
        void *f = dlsym(lib, symbols[i].name);
        if (!f) {
            /* (dlerror's text lives until the next dl call: copied before dlclose) */
            const char *e = dlerror();
            snprintf(why, n, "%s is not the libmicrohttpd kifu serve needs: %s", soname,
                     e ? e : symbols[i].name);
            dlclose(lib);
            return -1;
        }
        /* An object pointer into a function pointer's slot: what POSIX's dlsym promises
         * to work, without the cast ISO C leaves undefined. */
        memcpy((char *)&api + symbols[i].at, &f, sizeof f);
    }
    serve_mhd = api;
    return 0;
}
