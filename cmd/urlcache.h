/* SPDX-License-Identifier: MIT */
#ifndef URLCACHE_H
#define URLCACHE_H

/*
 * What urlcache's own files share (cmd/urlcache*.c, private to the
 * program): the usage text, its global options, the cache and output it
 * opened, how URLs are read, and the subcommands that live in
 * urlcache_maint.c and urlcache_session.c.
 */

#include "cache.h"
#include "cli.h"
#include "jsonl.h"
#include "session.h"
#include "util.h"

/*
 * The synopsis, one block per subcommand: "urlcache -h" prints them all,
 * "urlcache get -h" its own (urlcache(1)'s SYNOPSIS, word for word).
 */
#define SYN_GET                                                             \
	"urlcache [-q] [-d dir] [--cache-remote stores] [--ttl ttl] get\n"   \
	"                [-S name] [-i file] [-o file] [--stale] [url ...]\n" \
	"       urlcache [-q] [-d dir] [--ttl ttl] get [-o file]\n"        \
	"                --changed-since time\n"
#define SYN_SET                                                             \
	"urlcache [-q] [-d dir] [--cache-remote stores] set [-o file] [--pass]\n" \
	"                [file ...]\n"
#define SYN_INVALIDATE                                                       \
	"urlcache [-q] [-d dir] [--cache-remote stores] invalidate [-S name]\n" \
	"                [-i file] [-o file] [url ...]\n"
#define SYN_CLEAR                                                           \
	"urlcache [-q] [-d dir] [--cache-remote stores] clear [-S name]\n"    \
	"                [--remote] [-o file]\n"
#define SYN_CLEANUP                                                     \
	"urlcache [-q] [-d dir] [--ttl ttl] cleanup [-nv] [-o file] [-s size]\n" \
	"                [--fast] [--pack]\n"
#define SYN_LIST "urlcache [-q] [-d dir] [--ttl ttl] list [-o file]\n"
#define SYN_STATS "urlcache [-q] [-d dir] [--ttl ttl] stats [-o file] [--zero]\n"
#define SYN_PATH "urlcache [-d dir] path [url]\n"
#define SYN_SESSION                                                         \
	"urlcache [-q] [-d dir] [--ttl ttl] session [-o file]\n"           \
	"       urlcache [-q] [-d dir] session [--keep] [-o file] name\n"  \
	"                list|clear\n"                                     \
	"       urlcache [-q] [-d dir] session [--keep] [-o file] name add\n" \
	"                [url ...]\n"                                      \
	"       urlcache [-q] [-d dir] session [--keep] [-o file] name\n"  \
	"                get|remove url ...\n"
#define U "usage: "
#define I "       "

/* The lines of the subcommands' --help that they share. */
#define OPT_O \
	"  -o, --output=FILE         write the records to FILE, not stdout\n"
#define OPT_FORMAT                                                        \
	"      --compact             one JSON line per record, even on a "  \
	"terminal\n"                                                       \
	"      --pretty              indented records, even in a pipe\n"
#define OPT_END                                                           \
	"  -h, --help                the synopsis (-h) or this help (--help)\n" \
	"\n"                                                               \
	"Global options (-d, -q, --ttl) go before the command: see "       \
	"'urlcache --help'.\n"                                             \
	"See urlcache(1).\n"
#define OPT_TAIL OPT_FORMAT OPT_END

struct urlcache_opt {
	const char *dir; /* -d, else the default (NULL) */
	long ttl;        /* -t in seconds, -1: the default */
	int quiet;       /* -q */
	int quiet_messages; /* -q for list and stats: no warnings */
	int started;     /* start() ran: the cache and out are open */
};

/* Long-only options' values. */
enum {
	OPT_TTL = UK_OPT_FIRST,
	OPT_CACHE_REMOTE,
	OPT_ZERO,
	OPT_STALE,
	OPT_PASS,
	OPT_FAST,
	OPT_PACK,
	OPT_KEEP,
	OPT_CHANGED_SINCE,
};
extern struct urlcache_opt opt;
/* The cache (opened by main before any subcommand runs) and stdout. */
extern struct uk_cache cache;
extern struct uk_jsonl_out out;

/*
 * After a subcommand's options: open output (-o FILE; NULL or "-" is
 * stdout) or exit 2, open the cache or exit 3, and set up out.
 */
void start(const char *output);
/* A library error: a warning (none with quiet_messages) and exit status 1,
 * or exit 3 when fatal. */
void lib_error(const struct uk_err *err);
/* Write v to stdout unless -q (v stays the caller's). */
void emit(yajl_val v);

/*
 * The options of a subcommand that has -o and at most one long-only flag
 * (flag_ch; 0: none): -o's file into *output, the flag into *flag; exit 2
 * on any other option, with c's usage line.
 */
void out_opts(const struct uk_cli *c, int argc, char **argv,
    const struct option *lo, int flag_ch, int *flag, const char **output);

/*
 * How records are read (lib/jsonl) with flags and the field required:
 * bad lines become error records, and records that arrive failed pass
 * through (not with -q, which writes nothing).
 */
void policy_init(struct uk_jsonl_policy *p, int flags, const char *require);

/*
 * The URLs of get, invalidate and session: a source (lib/jsonl) of URL
 * operands and -i files in command-line order, else standard input, read
 * as url records or bare URLs.  urls_init sets src up; urls_run runs fn
 * for each URL and releases src.  Input refused (an operand that is not
 * a URL, a URL holding NUL) is written as its failed record, exit 1, and
 * the run goes on.
 */
void urls_init(struct uk_jsonl_src *src);
void urls_run(struct uk_jsonl_src *src, void (*fn)(const char *url));

/* A record for url with error set msg and "cached": false; exit 1. */
void emit_missing(const char *url, const char *msg);

/*
 * Write the record of url: from session s when it has one (s may be
 * NULL), else the cache's entry with "cached": true (expired ones too
 * with stale); a miss is emit_missing's record.  url NULL frees what
 * is kept between calls.
 */
void emit_cached(const char *url, struct uk_session *s, int stale);

/* A session name given by the user: checked (else exit 2 with c's usage
 * line), then opened in s. */
void session_name_check(const struct uk_cli *c, const char *name);
void session_open(const struct uk_cli *c, struct uk_session *s,
    const char *name);

/* Subcommands of urlcache_maint.c: argc and argv from the subcommand's
 * name on; each returns the exit status. */
int cmd_clear(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_path(int argc, char **argv);
/* The session subcommand (urlcache_session.c), as those above. */
int cmd_session(int argc, char **argv);

#endif
