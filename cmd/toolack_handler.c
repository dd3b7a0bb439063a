/* SPDX-License-Identifier: MIT */
/*
 * toolack exec's handlers: the commands given with -H TOOL=CMD (or the
 * default one), split into words and checked before the executor starts.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cli.h"
#include "util.h"
#include "toolack.h"

#include "banned.h"

/* The handlers, in the order given. */
static struct {
	struct handler *v;
	size_t n;
} hs;

/* Split a command into words: blanks separate, quotes group, no shell. */
static int
split_words(const char *s, struct handler *h)
{
	struct uk_buf w = UK_BUF_INIT;
	int inword = 0;
	char q = 0;

	h->argv = NULL;
	h->argc = 0;
	for (;; s++) {
		if (!*s || (!q && (*s == ' ' || *s == '\t'))) {
			if (inword) {
				h->argv = uk_util_xrealloc(h->argv,
				    (size_t)(h->argc + 2) * sizeof(char *));
				h->argv[h->argc++] = uk_buf_detach(&w, NULL);
				h->argv[h->argc] = NULL;
				inword = 0;
			}
			if (!*s)
				break;
			continue;
		}
		inword = 1;
		if (q && *s == q)
			q = 0;
		else if (!q && (*s == '\'' || *s == '"'))
			q = *s;
		else if (*s == '\\' && q != '\'' && s[1])
			uk_buf_addch(&w, *++s);
		else
			uk_buf_addch(&w, *s);
	}
	uk_buf_release(&w);
	return q || !h->argc ? -1 : 0;
}

/*
 * A handler for the tool of tlen bytes, running cmd; -1 (and none added)
 * when cmd is no command.
 */
static int
handler_new(const char *tool, size_t tlen, const char *cmd)
{
	struct handler *h;

	hs.v = uk_util_xrealloc(hs.v, (hs.n + 1) * sizeof(*hs.v));
	h = &hs.v[hs.n];
	if (split_words(cmd, h))
		return -1;
	h->tool = uk_util_xmemdup(tool, tlen);
	hs.n++;
	return 0;
}

void
handler_add(const struct uk_cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		uk_cli_usage(c, "-H: expected tool=command: '%s'", arg);
	if (handler_new(arg, (size_t)(eq - arg), eq + 1))
		uk_cli_usage(c, "-H: bad command: '%s'", eq + 1);
}

struct handler *
handler_for(const char *tool)
{
	size_t i;

	for (i = 0; i < hs.n; i++)
		if (!strcmp(hs.v[i].tool, tool))
			return &hs.v[i];
	return NULL;
}

/*
 * Whether a handler's command can be run: a path with the x bit, or a
 * name found so on PATH (execvp's search, done here beforehand so that
 * a typo is exit 2 at the start, not a failed ack on every call).
 */
static int
command_ok(const char *cmd)
{
	struct uk_buf b = UK_BUF_INIT;
	const char *path = getenv("PATH"), *p, *e;
	struct stat st;
	int ok = 0;

	if (strchr(cmd, '/'))
		return !stat(cmd, &st) && S_ISREG(st.st_mode) &&
		    !access(cmd, X_OK);
	if (!path)
		path = "/usr/bin:/bin";
	for (p = path; !ok; p = e + 1) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		uk_buf_reset(&b);
		uk_buf_addf(&b, "%.*s/%s", e == p ? 1 : (int)(e - p),
		    e == p ? "." : p, cmd);
		ok = !stat(b.buf, &st) && S_ISREG(st.st_mode) &&
		    !access(b.buf, X_OK);
		if (!*e)
			break;
	}
	uk_buf_release(&b);
	return ok;
}

void
handlers_check(const struct uk_cli *c)
{
	size_t k;

	if (!handler_for("open_url") && command_ok(TA_DEFAULT_OPEN) &&
	    handler_new("open_url", 8, TA_DEFAULT_OPEN))
		uk_util_die(UK_EXIT_FATAL, "cannot split '%s'",
		    TA_DEFAULT_OPEN);
	if (!hs.n)
		uk_cli_usage(c,
		    "no handler: give -H open_url=CMD (" TA_DEFAULT_OPEN
		    ", the default for open_url, is not on PATH)");
	for (k = 0; k < hs.n; k++)
		if (!command_ok(hs.v[k].argv[0]))
			uk_util_die(UK_EXIT_USAGE,
			    "-H %s: '%s' is not an executable command "
			    "(not on PATH, or no x bit)",
			    hs.v[k].tool, hs.v[k].argv[0]);
}

void
handlers_tools(struct uk_buf *b)
{
	size_t k;

	for (k = 0; k < hs.n; k++)
		uk_buf_addf(b, "%s%s", k ? "," : "", hs.v[k].tool);
}

void
handlers_release(void)
{
	size_t k;
	int c;

	for (k = 0; k < hs.n; k++) {
		for (c = 0; c < hs.v[k].argc; c++)
			free(hs.v[k].argv[c]);
		free(hs.v[k].argv);
		free(hs.v[k].tool);
	}
	free(hs.v);
	hs.v = NULL;
	hs.n = 0;
}
