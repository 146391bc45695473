/* ch_options.c: the options of the index on ClickHouse, one parser for every command that
 * takes --clickhouse (index, explore, search, serve): where the tables are, how long a
 * request may take, whom to trust over https and who we are. Credentials come from the
 * environment (KIFU_CLICKHOUSE_USER, KIFU_CLICKHOUSE_PASSWORD, read by the library) or a
 * file, never from the command line, where every user of the machine sees them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* The credentials a file gave: one command line per process, so one pair. */
static char file_user[128], file_password[128];

/* Read "user=NAME" and "password=SECRET" lines (blank lines and # comments aside) from
 * path, a file only its owner may read, into o. 0, or -1 said. */
static int read_credentials(const char *path, kifu_clickhouse_options *o)
{
    FILE *f = fopen(path, "r");
    struct stat st;
    if (!f || fstat(fileno(f), &st)) {
        cli_err("kifu: --clickhouse-credentials %s: %s\n", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    /* As ssh refuses a private key others can read: the password would not be one. */
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        cli_err("kifu: --clickhouse-credentials %s: others may read or change it (mode "
                "%03o); make it the owner's only: chmod 600 %s\n",
                path, (unsigned)(st.st_mode & 0777), path);
        fclose(f);
        return -1;
    }
    char line[512];
    int n = 0, status = 0, user = 0;
    while (status == 0 && fgets(line, sizeof line, f)) {
        n++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *eq = strchr(line, '=');
        int is_user = eq && eq - line == 4 && !strncmp(line, "user", 4);
        int is_password = eq && eq - line == 8 && !strncmp(line, "password", 8);
        char *into = is_user ? file_user : is_password ? file_password : NULL;
        size_t cap = is_user ? sizeof file_user : sizeof file_password;
        if (!into || strlen(eq + 1) >= cap) {
            /* The line is not quoted: it may hold the password. */
            cli_err("kifu: --clickhouse-credentials %s:%d: %s\n", path, n,
                    into ? "too long" : "expected user=NAME or password=SECRET");
            status = -1;
        } else {
            snprintf(into, cap, "%s", eq + 1);
            user |= is_user;
        }
    }
    fclose(f);
    if (status == 0 && !user) {
        cli_err("kifu: --clickhouse-credentials %s: no user=NAME line\n", path);
        status = -1;
    }
    if (status == 0)
        o->user = file_user, o->password = file_password;
    return status;
}

int cli_ch_option(int argc, char **argv, int *i, const char **url,
                  kifu_clickhouse_options *o)
{
    static const char *const valued[] = {"--clickhouse",
                                         "--database",
                                         "--table",
                                         "--cluster",
                                         "--timeout",
                                         "--ca-file",
                                         "--clickhouse-credentials"};
    const char *a = argv[*i];
    if (!strcmp(a, "--insecure-skip-tls-verify")) {
        /* Said every run: a setting left in a script must not be forgotten. */
        if (!o->insecure_skip_tls_verify)
            cli_err("kifu: warning: --insecure-skip-tls-verify: the ClickHouse server's "
                    "certificate is not checked; anyone between here and it can read and "
                    "change what is sent\n");
        o->insecure_skip_tls_verify = 1;
        return 1;
    }
    size_t k = 0, n = sizeof valued / sizeof valued[0];
    while (k < n && strcmp(a, valued[k]))
        k++;
    if (k == n)
        return 0;
    if (*i + 1 >= argc) {
        cli_err("kifu: %s needs a value\n", a);
        return -1;
    }
    const char *v = argv[++*i];
    switch (k) {
    case 0:
        *url = v;
        break;
    case 1:
        o->database = v;
        break;
    case 2:
        o->table = v;
        break;
    case 3:
        o->cluster = v;
        break;
    case 4:
        if (cli_timeout_ms(v, &o->timeout_ms)) {
            cli_err("kifu: --timeout needs a number of seconds (0.001 to 86400)\n");
            return -1;
        }
        break;
    case 5:
        o->ca_file = v;
        break;
    default:
        if (read_credentials(v, o))
            return -1;
    }
    return 1;
}
