/* SPDX-License-Identifier: MIT */
#ifndef UK_BROWSER_H
#define UK_BROWSER_H

/*
 * A Chromium to talk CDP to: one we launch, or one already running that
 * we attach to.
 *
 * Launching starts Debian's chromium (/usr/lib/chromium/chromium, or
 * $URLKIT_CHROMIUM) headless, with a fresh temporary profile directory and
 * --remote-debugging-pipe, in a process group of its own; the browser
 * dies with us (PR_SET_PDEATHSIG) even if we are killed outright.  Its
 * $HOME, $TMPDIR and XDG directories are the temporary directory too, and
 * downloads are refused (Browser.setDownloadBehavior deny).
 * uk_browser_close closes it, reaps it, kills what is left of its process
 * group and removes the profile.
 *
 * Attaching reads webSocketDebuggerUrl from the address's /json/version
 * and opens a WebSocket to it.  Nothing is attached to until the caller
 * asks, and uk_browser_close only closes the connection: the user's
 * browser and tabs stay as they were.
 *
 * Usage: uk_browser_launch or uk_browser_attach, then b->cdp is the
 * message stream (lib/cdp); uk_browser_close at the end, and
 * uk_browser_kill from a signal handler.  The struct owns its strings, its
 * directory and its process.
 */

#include <sys/types.h>

#include "cdp.h"
#include "util.h"

#define UK_BROWSER_PATH    "/usr/lib/chromium/chromium"
#define UK_BROWSER_ADDRESS "http://127.0.0.1:9222"

struct uk_browser {
	struct uk_cdp cdp;
	pid_t pid;     /* the browser we launched; 0 when attached */
	char *tmpdir;  /* ours: holds profile/ and chromium.log; or NULL */
	char *address; /* the DevTools address attached to, or NULL */
	char *product; /* "Chrome/156.0...." from Browser.getVersion */
};

struct uk_browser_opts {
	const char *path;       /* NULL: $URLKIT_CHROMIUM, then the default */
	int width, height;      /* window size; 0: 1280x720 */
	const char *user_agent; /* NULL: the browser's own */
	double timeout;         /* for the browser to answer; <= 0: 30 s */
	const char *proxy;      /* "http://127.0.0.1:PORT" for every request,
				   loopback too; NULL: none */
};

/*
 * Launch a browser.  0, or -1 with err (UK_EXIT_FATAL) when it cannot be
 * started or does not answer; then nothing is left behind.
 */
int uk_browser_launch(struct uk_browser *b, const struct uk_browser_opts *o,
    struct uk_err *err);

/*
 * Attach to the browser at address (http://host:port, or a ws:// URL of
 * the browser target).  -1 with err (UK_EXIT_FATAL) when nothing answers
 * there; when something answers but the protocol goes quiet within
 * timeout, err says "browser at ADDR answers but will not talk (Chrome
 * 136+ ignores remote debugging on the default profile?)".
 */
int uk_browser_attach(struct uk_browser *b, const char *address, double timeout,
    struct uk_err *err);

/*
 * Let go of the browser: a launched one is asked to close (Browser.close),
 * waited for up to grace seconds, then killed with its process group,
 * reaped, and its profile removed; an attached one is only disconnected.
 * When the caller made itself a child subreaper (prctl
 * PR_SET_CHILD_SUBREAPER), the browser's orphans that escaped its process
 * group (crashpad handlers) are killed too, and every child of the process
 * is reaped: only for programs whose children are all the browser's.  Safe
 * to call twice.
 */
void uk_browser_close(struct uk_browser *b, double grace);

/*
 * For a signal handler that ends the program: kill the browser launched
 * with b and its process group, reap it, and remove its profile, with
 * async-signal-safe calls only (kill, waitpid, fork, execve).
 * uk_browser_launch sets the pid and the directory as soon as they exist,
 * so a signal during the launch is covered too.  Nothing for an attached
 * browser.
 */
void uk_browser_kill(const struct uk_browser *b);

#endif
