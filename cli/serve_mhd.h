/* serve_mhd.h: the libmicrohttpd functions `kifu serve` calls, reached through a table that
 * serve_mhd_load fills with dlopen when serve starts. Linked, the library (and gnutls with
 * the seven libraries under it) was mapped by every command, serve or not: a third of the
 * start-up of `kifu -V`. Only the header is needed to build. */
#ifndef KIFU_CLI_SERVE_MHD_H
#define KIFU_CLI_SERVE_MHD_H

#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

/* Debian's libmicrohttpd12: the ABI this header describes. */
#define SERVE_MHD_SONAME "libmicrohttpd.so.12"

typedef struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port,
                                       MHD_AcceptPolicyCallback apc, void *apc_cls,
                                       MHD_AccessHandlerCallback dh, void *dh_cls, ...);
    void (*stop_daemon)(struct MHD_Daemon *daemon);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon,
                                                   enum MHD_DaemonInfoType info_type,
                                                   ...);
    struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer,
                                                        enum MHD_ResponseMemoryMode mode);
    enum MHD_Result (*add_response_header)(struct MHD_Response *response,
                                           const char *header, const char *content);
    enum MHD_Result (*queue_response)(struct MHD_Connection *connection,
                                      unsigned int status_code,
                                      struct MHD_Response *response);
    void (*destroy_response)(struct MHD_Response *response);
    int (*get_connection_values)(struct MHD_Connection *connection,
                                 enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                 void *iterator_cls);
    const char *(*lookup_connection_value)(struct MHD_Connection *connection,
                                           enum MHD_ValueKind kind, const char *key);
} serve_mhd_api;

/* The table, filled by serve_mhd_load. */
extern serve_mhd_api serve_mhd;

/* Opens SONAME and fills serve_mhd. 0 on success; else -1 and WHY (N bytes) says which
 * library or function is missing, in dlerror's words. */
int serve_mhd_load(const char *soname, char *why, size_t n);

#endif
