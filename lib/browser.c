/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "browser.h"
#include "json.h"

#define HANG_MSG                                                               \
	"browser at %s answers but will not talk (Chrome 136+ ignores "        \
	"remote debugging on the default profile?)"

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) && errno != ENOENT ? -1 : 0;
	return unlink(path) && errno != ENOENT ? -1 : 0;
}

/* Remove the directory tree at path; -1 when something stayed. */
static int
rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) && errno == ENOENT)
		return 0;
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

static void
nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Reap pid within grace seconds; 1 when reaped. */
static int
reap(pid_t pid, double grace)
{
	double end = uk_util_mono_now() + grace;
	pid_t r;

	for (;;) {
		r = waitpid(pid, NULL, WNOHANG);
		if (r == pid || (r < 0 && errno == ECHILD))
			return 1;
		if (uk_util_mono_now() >= end)
			return 0;
		nap(5);
	}
}

/* The last line of the browser's log that says something, for a message. */
static void
log_tail(const char *tmpdir, char *out, size_t size)
{
	char path[4096], line[512];
	FILE *fp;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/chromium.log", tmpdir);
	if (!(fp = fopen(path, "r")))
		return;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "ERROR") || strstr(line, "rror") ||
		    strstr(line, "annot")) {
			size_t n = strlen(line);

			if (n >= size)
				n = size - 1;
			memcpy(out, line, n);
			out[n] = '\0';
		}
	}
	fclose(fp);
}

/*
 * The profile's preferences, written before the browser first reads them:
 * a page that declares no charset (in its Content-Type, a byte order mark
 * or a <meta>) is read as UTF-8, as urlfetch reads it (lib/charset), not
 * as the locale's legacy encoding (windows-1252, which makes "Loading..."
 * with a UTF-8 ellipsis read as three letters of mojibake).
 * Chromium takes this default from the profile's preferences
 * (intl.charset_default), so it is written into the new profile.
 *
 * WebRTC's UDP goes round any proxy: a page's RTCPeerConnection sends its
 * STUN and TURN requests, and its candidates' packets, straight to the
 * addresses the page names (127.0.0.2, ::1, a link-local address), where
 * the guard never sees them.  webrtc.ip_handling_policy
 * "disable_non_proxied_udp" (Chromium's strictest, the one its
 * WebRtcIPHandling policy sets) leaves WebRTC only TCP through the proxy,
 * where the guard judges it.  A pref, not the
 * --force-webrtc-ip-handling-policy switch: Chromium 156 sent the same
 * STUN requests with the switch given (a UDP canary on 127.0.0.2 and ::1,
 * tests/pwfetch-webrtc.bats), and none with the pref.
 */
static int
write_prefs(const char *profile)
{
	static const char prefs[] = "{\"intl\":{\"charset_default\":\"UTF-8\"},"
	    "\"webrtc\":{\"ip_handling_policy\":\"disable_non_proxied_udp\"}}\n";
	char path[4300];
	FILE *fp;
	int bad;

	snprintf(path, sizeof(path), "%s/Default", profile);
	if (mkdir(path, 0700))
		return -1;
	snprintf(path, sizeof(path), "%s/Default/Preferences", profile);
	if (!(fp = fopen(path, "w")))
		return -1;
	bad = fputs(prefs, fp) < 0;
	return fclose(fp) || bad ? -1 : 0;
}

/*
 * In the child: become the browser, its protocol pipe on 3 and 4 (to[0]
 * and from[1]), its output into logfd, its files under tmpl.  Never
 * returns.
 */
static void __attribute__((noreturn))
exec_chromium(const char *path, const struct uk_browser_opts *o,
    const char *tmpl, const char *udd, const char *win, const char *proxy,
    pid_t parent, const int to[2], const int from[2], int logfd)
{
	/*
	 * WebUIOmniboxPopup: Chromium 156 builds its address bar's popup, a
	 * WebUI page in a renderer of its own, at start even when headless,
	 * where no one can see it: a third of a launch's CPU (2.0 of 5.9 s
	 * for one page on the shared test machine, /proc/PID/stat of each
	 * process).  A feature name a Chromium does not know is ignored.
	 */
	const char *argv[] = { path, "--headless", "--no-sandbox",
		"--disable-gpu", "--disable-quic", "--no-first-run",
		"--no-default-browser-check", "--disable-background-networking",
		"--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--disable-extensions",
		"--disable-breakpad", "--mute-audio", "--hide-scrollbars",
		"--password-store=basic", "--use-mock-keychain",
		"--disable-features=WebUIOmniboxPopup",
		"--remote-debugging-pipe", udd, win, proxy,
		"--proxy-bypass-list=<-loopback>", "about:blank", NULL };
	sigset_t none;
	size_t k;
	int a, c, s, nullfd;

	if (!o->proxy) {
		/* No proxy: its two flags out, the rest moved up. */
		for (k = 0; argv[k] != proxy; k++)
			;
		for (; argv[k + 2]; k++)
			argv[k] = argv[k + 2];
		argv[k] = NULL;
	}
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	/* Its temporary files go into our directory too. */
	setenv("TMPDIR", tmpl, 1);
	/*
	 * And so do its crash reports, disk cache and dconf files,
	 * which would go to ~/.config and ~/.cache otherwise.
	 */
	setenv("XDG_CONFIG_HOME", tmpl, 1);
	setenv("XDG_CACHE_HOME", tmpl, 1);
	/*
	 * And whatever it would put in the home directory (a page's
	 * download, if one got past Browser.setDownloadBehavior).
	 */
	setenv("HOME", tmpl, 1);
	for (s = 1; s < 32; s++)
		signal(s, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/*
	 * Every descriptor that goes onto 0 to 4 is moved above them
	 * first: with fd 3 open in our caller, the log would be 4, and
	 * dup2(c, 4) would send Chromium's log into the protocol pipe.
	 */
	a = fcntl(to[0], F_DUPFD, 10);
	c = fcntl(from[1], F_DUPFD, 10);
	logfd = fcntl(logfd, F_DUPFD, 10);
	nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (nullfd >= 0)
		nullfd = fcntl(nullfd, F_DUPFD, 10);
	if (a < 0 || c < 0 || logfd < 0 || nullfd < 0 || dup2(a, 3) < 0 ||
	    dup2(c, 4) < 0 || dup2(nullfd, 0) < 0 || dup2(logfd, 1) < 0 ||
	    dup2(logfd, 2) < 0)
		_exit(127);
	close(a);
	close(c);
	close(logfd);
	close(nullfd);
	execv(path, (char **)argv);
	dprintf(2, "cannot run %s: %s\n", path, strerror(errno));
	_exit(127);
}

int
uk_browser_launch(struct uk_browser *b, const struct uk_browser_opts *o,
    struct uk_err *err)
{
	const char *path = o->path, *tmp;
	char tmpl[4096], profile[4200], logp[4200], udd[4300], win[64];
	char proxy[300];
	int to[2] = { -1, -1 }, from[2] = { -1, -1 }, logfd = -1;
	double timeout = o->timeout > 0 ? o->timeout : 30;
	pid_t parent = getpid(), pid;
	yajl_val v, p;

	memset(b, 0, sizeof(*b));
	uk_cdp_init_pipe(&b->cdp, -1, -1);
	if (!path && !((path = getenv("URLKIT_CHROMIUM")) && *path))
		path = UK_BROWSER_PATH;
	if (access(path, X_OK))
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot start chromium: '%s': %s", path, strerror(errno));
	if (!((tmp = getenv("TMPDIR")) && *tmp))
		tmp = "/tmp";
	snprintf(tmpl, sizeof(tmpl), "%s/pwfetch.XXXXXX", tmp);
	if (!mkdtemp(tmpl))
		return uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot make a profile directory in '%s': %s", tmp,
		    strerror(errno));
	b->tmpdir = uk_util_xstrdup(tmpl);
	snprintf(profile, sizeof(profile), "%s/profile", tmpl);
	snprintf(logp, sizeof(logp), "%s/chromium.log", tmpl);
	snprintf(udd, sizeof(udd), "--user-data-dir=%s", profile);
	snprintf(win, sizeof(win), "--window-size=%d,%d",
	    o->width > 0 ? o->width : 1280, o->height > 0 ? o->height : 720);
	/*
	 * Every connection goes through the caller's proxy, loopback ones
	 * too ("<-loopback>" takes away the rule that sends them direct);
	 * without a proxy the flag is left out (the array ends there).
	 * WebRTC's UDP is not the proxy's: see write_prefs.
	 */
	if (o->proxy)
		snprintf(proxy, sizeof(proxy), "--proxy-server=%s", o->proxy);
	if (mkdir(profile, 0700) || write_prefs(profile) ||
	    (logfd = open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		 0600)) < 0 ||
	    pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC)) {
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "cannot set up chromium: %s", strerror(errno));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		uk_util_err_set(err, UK_EXIT_FATAL, "cannot fork: %s",
		    strerror(errno));
		goto fail;
	}
	if (pid == 0)
		exec_chromium(path, o, tmpl, udd, win, proxy, parent, to, from,
		    logfd);
	b->pid = pid;
	close(to[0]);
	close(from[1]);
	close(logfd);
	uk_cdp_init_pipe(&b->cdp, from[0], to[1]);
	v = uk_cdp_call(&b->cdp, NULL, "Browser.getVersion", NULL, timeout,
	    err);
	if (!v) {
		char tail[400];

		log_tail(b->tmpdir, tail, sizeof(tail));
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "chromium did not start: %s%s%s",
		    b->cdp.dead ? b->cdp.why : "no answer over the pipe",
		    *tail ? ": " : "", tail);
		uk_browser_close(b, 0);
		return -1;
	}
	b->product = uk_util_xstrdup(
	    uk_json_get_str(v, "product") ? uk_json_get_str(v, "product") : "");
	uk_json_free(v);
	/*
	 * A page cannot write files: downloads are refused (and $HOME is
	 * the temporary directory, should one get through all the same).
	 */
	p = uk_json_object();
	uk_json_set_str(p, "behavior", "deny");
	v = uk_cdp_call(&b->cdp, NULL, "Browser.setDownloadBehavior", p,
	    timeout, err);
	uk_json_free(p);
	if (!v) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		uk_util_err_set(err, UK_EXIT_FATAL,
		    "chromium will not refuse downloads: %s", why);
		uk_browser_close(b, 0);
		return -1;
	}
	uk_json_free(v);
	return 0;
fail:
	if (logfd >= 0)
		close(logfd);
	if (to[0] >= 0) {
		close(to[0]);
		close(to[1]);
	}
	if (from[0] >= 0) {
		close(from[0]);
		close(from[1]);
	}
	uk_browser_close(b, 0);
	return -1;
}

int
uk_browser_attach(struct uk_browser *b, const char *address, double timeout,
    struct uk_err *err)
{
	char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL;
	struct uk_buf body = UK_BUF_INIT;
	struct uk_err e2;
	yajl_val ver = NULL, v = NULL;
	const char *ws;
	int status, r = -1;

	memset(b, 0, sizeof(*b));
	uk_cdp_init_pipe(&b->cdp, -1, -1);
	b->address = uk_util_xstrdup(address);
	if (uk_cdp_split_url(address, &scheme, &host, &port, &path, err))
		goto out;
	if (!strcmp(scheme, "ws")) {
		ws = address;
	} else {
		status = uk_cdp_json_version(host, port, timeout, &body, &e2);
		if (status < 0) {
			if (e2.code == UK_EXIT_FAIL) /* connected, no answer */
				uk_util_err_set(err, UK_EXIT_FATAL, HANG_MSG,
				    address);
			else
				uk_util_err_set(err, UK_EXIT_FATAL,
				    "no browser at %s: %s", address, e2.msg);
			goto out;
		}
		if (status != 200 ||
		    !(ver = uk_json_parse(body.buf, body.len, &e2)) ||
		    !(ws = uk_json_get_str(ver, "webSocketDebuggerUrl"))) {
			uk_util_err_set(err, UK_EXIT_FATAL,
			    "%s/json/version (HTTP %d) names no "
			    "webSocketDebuggerUrl: not a DevTools address?",
			    address, status);
			goto out;
		}
	}
	if (uk_cdp_init_ws(&b->cdp, ws, timeout, &e2)) {
		if (e2.code == UK_EXIT_FAIL)
			uk_util_err_set(err, UK_EXIT_FATAL, HANG_MSG, address);
		else
			uk_util_err_set(err, UK_EXIT_FATAL, "browser at %s: %s",
			    address, e2.msg);
		goto out;
	}
	v = uk_cdp_call(&b->cdp, NULL, "Browser.getVersion", NULL, timeout,
	    &e2);
	if (!v) {
		if (!b->cdp.dead && e2.code == UK_EXIT_FAIL &&
		    !strncmp(e2.msg, "timeout", 7))
			uk_util_err_set(err, UK_EXIT_FATAL, HANG_MSG, address);
		else
			uk_util_err_set(err, UK_EXIT_FATAL, "browser at %s: %s",
			    address, e2.msg);
		goto out;
	}
	b->product = uk_util_xstrdup(
	    uk_json_get_str(v, "product") ? uk_json_get_str(v, "product") : "");
	r = 0;
out:
	if (r)
		uk_browser_close(b, 0);
	uk_json_free(ver);
	uk_json_free(v);
	uk_buf_release(&body);
	free(scheme);
	free(host);
	free(port);
	free(path);
	return r;
}

/*
 * When this process is a child subreaper (PR_SET_CHILD_SUBREAPER), what
 * the browser left behind outside its process group (crashpad handlers,
 * children of dead zygotes) is handed to us: give it a moment to end, kill
 * what stays, and reap it all.
 */
static void
reap_orphans(double grace)
{
	double end = uk_util_mono_now() + grace;
	int sub = 0, killed = 0;
	char path[64], buf[4096];
	pid_t r;

	if (prctl(PR_GET_CHILD_SUBREAPER, &sub) || !sub)
		return;
	for (;;) {
		r = waitpid(-1, NULL, WNOHANG);
		if (r > 0)
			continue;
		if (r < 0)
			return; /* no children left */
		if (uk_util_mono_now() < end) {
			nap(5);
			continue;
		}
		if (killed)
			return;
		killed = 1;
		end = uk_util_mono_now() + 2;
		snprintf(path, sizeof(path), "/proc/self/task/%ld/children",
		    (long)getpid());
		{
			FILE *fp = fopen(path, "r");
			char *p, *q;

			if (!fp)
				return;
			if (!fgets(buf, sizeof(buf), fp))
				buf[0] = '\0';
			fclose(fp);
			for (p = buf; *p; p = q) {
				long pid = strtol(p, &q, 10);

				if (q == p)
					break;
				if (pid > 0)
					kill((pid_t)pid, SIGKILL);
			}
		}
	}
}

void
uk_browser_close(struct uk_browser *b, double grace)
{
	if (b->pid > 0) {
		if (!b->cdp.dead && grace > 0)
			uk_cdp_send(&b->cdp, NULL, "Browser.close", NULL, NULL);
		uk_cdp_release(&b->cdp);
		if (grace <= 0 || !reap(b->pid, grace)) {
			kill(-b->pid, SIGKILL);
			kill(b->pid, SIGKILL);
			reap(b->pid, 5);
		}
		/* Whatever is left of its process group goes too. */
		kill(-b->pid, SIGKILL);
		b->pid = 0;
		reap_orphans(0);
	} else {
		uk_cdp_release(&b->cdp);
	}
	if (b->tmpdir) {
		if (rmtree(b->tmpdir)) {
			nap(50); /* a straggler may still have been writing */
			rmtree(b->tmpdir);
		}
		free(b->tmpdir);
		b->tmpdir = NULL;
	}
	free(b->address);
	free(b->product);
	b->address = b->product = NULL;
}

void
uk_browser_kill(const struct uk_browser *b)
{
	pid_t p = b->pid, rm = -1;
	char *dir = b->tmpdir;

	if (p > 0) {
		kill(-p, SIGKILL);
		kill(p, SIGKILL);
		waitpid(p, NULL, 0);
		kill(-p, SIGKILL);
	}
	if (dir && (rm = fork()) == 0) {
		char *const argv[] = { "rm", "-rf", dir, NULL };
		char *const envp[] = { NULL };

		execve("/bin/rm", argv, envp);
		_exit(127);
	}
	if (rm > 0)
		waitpid(rm, NULL, 0);
}
