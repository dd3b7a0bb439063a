/* SPDX-License-Identifier: MIT */
/*
 * The libgit2 route of the repository snapshot (see repo.h): a git URL
 * cloned by a child process into a private temporary directory, its
 * redirects followed and judged first, every connection through our own
 * git stream that the guard judges; or a local repository read in place.
 * Files come from the tree of HEAD, so symbolic links are never followed.
 */
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <git2.h>
#include <git2/sys/stream.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "banned.h"
#include "buf.h"
#include "child.h"
#include "http.h"
#include "netguard.h"
#include "repo.h"
#include "repo_int.h"
#include "symbols.h"
#include "util.h"

struct walk {
	git_repository *repo;
	git_odb *odb;
	struct snap *s;
	struct uk_err *err;
	int failed;
	struct uk_buf path;
};

static int
walk_cb(const char *root, const git_tree_entry *te, void *arg)
{
	struct walk *w = arg;
	const char *name = git_tree_entry_name(te);
	git_filemode_t mode = git_tree_entry_filemode(te);
	size_t size;
	git_object_t type;
	git_blob *blob;

	if (uk_util_mono_now() > w->s->deadline) {
		uk_util_err_set(w->err, UK_EXIT_FAIL,
		    "time limit of %gs reached reading the repository",
		    w->s->o->timeout);
		w->failed = 1;
		return -1;
	}
	/* Regular files only: no links, no submodules. */
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE)
		return 0;
	uk_buf_reset(&w->path);
	uk_buf_addstr(&w->path, root);
	uk_buf_addstr(&w->path, name);
	if (git_odb_read_header(&size, &type, w->odb, git_tree_entry_id(te)) <
	    0)
		return 0;
	if (!uk_repo_snap_wants(w->s, w->path.buf, size)) {
		if (uk_repo_snap_cap_exceeded(w->s, w->err) < 0) {
			w->failed = 1;
			return -1;
		}
		return 0;
	}
	if (uk_repo_snap_cap_exceeded(w->s, w->err) < 0) {
		w->failed = 1;
		return -1;
	}
	if (git_blob_lookup(&blob, w->repo, git_tree_entry_id(te)) < 0)
		return 0;
	uk_repo_snap_keep(w->s, w->path.buf,
	    uk_util_xmemdup(git_blob_rawcontent(blob),
		(size_t)git_blob_rawsize(blob)),
	    (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

static int
git_fail(struct uk_err *err, const char *what, const char *where)
{
	const git_error *ge = git_error_last();

	return uk_util_err_set(err, UK_EXIT_FAIL, "%s '%s': %s", what, where,
	    ge && ge->message ? ge->message : "libgit2 error");
}

/* Read HEAD's tree of the repository at path. */
static int
read_repo(const char *path, int bare, struct snap *s, struct uk_err *err)
{
	git_repository *repo = NULL;
	git_object *obj = NULL;
	git_tree *tree = NULL;
	struct walk w;
	int ret = -1;

	memset(&w, 0, sizeof(w));
	uk_buf_init(&w.path, 0);
	if ((bare ? git_repository_open_bare(&repo, path) :
		    git_repository_open_ext(&repo, path,
			GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) < 0) {
		git_fail(err, "cannot open repository", path);
		goto out;
	}
	if (git_revparse_single(&obj, repo, "HEAD^{tree}") < 0) {
		git_fail(err, "no HEAD tree in", path);
		goto out;
	}
	tree = (git_tree *)obj;
	w.repo = repo;
	w.s = s;
	w.err = err;
	if (git_repository_odb(&w.odb, repo) < 0) {
		git_fail(err, "cannot read objects of", path);
		goto out;
	}
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, walk_cb, &w) < 0) {
		if (!w.failed)
			git_fail(err, "cannot read the tree of", path);
		goto out;
	}
	ret = 0;
out:
	if (w.odb)
		git_odb_free(w.odb);
	uk_buf_release(&w.path);
	if (obj)
		git_object_free(obj);
	if (repo)
		git_repository_free(repo);
	return ret;
}

static int
rm_cb(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static void
rm_tree(const char *dir)
{
	nftw(dir, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

static volatile sig_atomic_t caught;
static pthread_mutex_t clone_lock = PTHREAD_MUTEX_INITIALIZER;

static void
on_signal(int sig)
{
	caught = sig;
}

/* The child: clone url bare into dir; exit 0, 1 (message on fd), 4 big. */
static unsigned long long child_max;
static int child_too_big;

static int
child_progress(const git_indexer_progress *p, void *arg)
{
	(void)arg;
	if (p->received_bytes > child_max) {
		child_too_big = 1;
		return -1;
	}
	return 0;
}

/* -k: accept any certificate (0 lets the connection go on). */
static int
accept_cert(git_cert *cert, int valid, const char *host, void *arg)
{
	(void)cert;
	(void)valid;
	(void)host;
	(void)arg;
	return 0;
}

/*
 * The clone's connections, made here rather than by libgit2 (registered
 * as its GIT_STREAM_STANDARD, through which its TLS stream connects too):
 * libgit2 resolves the host again itself, and would connect to whatever
 * the name answers then, which guard_host never judged (DNS rebinding).
 * Here the answer the connection uses is the one judged: every address of
 * it, as uk_netguard_host_allowed judges a name.  libgit2's proxy option
 * would not do it: libgit2 1.5 sends the proxy's request line straight to
 * the host (seen with strace; libgit2 issue 5650).  The look-up and the
 * connect have no timeout of their own: the clone child is killed at the
 * step's deadline (fetch_git).
 */
struct guard_stream {
	git_stream parent;
	char *host, *port;
	int fd;
};

static int
gs_connect(git_stream *st)
{
	struct guard_stream *s = (struct guard_stream *)st;
	struct addrinfo hints, *res = NULL, *ai;
	struct uk_netguard g;
	char addr[64], msg[300];
	int e = 0;

	uk_netguard_init(&g);
	g.allow_private = 0;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(s->host, s->port, &hints, &res) || !res) {
		snprintf(msg, sizeof(msg), "'%s': cannot resolve", s->host);
		git_error_set_str(GIT_ERROR_NET, msg);
		return -1;
	}
	for (ai = res; ai; ai = ai->ai_next)
		if (!uk_netguard_check(&g, ai->ai_addr, addr, sizeof(addr))) {
			snprintf(msg, sizeof(msg),
			    "'%s': address %s refused (private network; "
			    "URLKIT_ALLOW_PRIVATE=1 allows it)",
			    s->host, addr);
			git_error_set_str(GIT_ERROR_NET, msg);
			freeaddrinfo(res);
			return -1;
		}
	for (ai = res; ai && s->fd < 0; ai = ai->ai_next) {
		s->fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (s->fd >= 0 && connect(s->fd, ai->ai_addr, ai->ai_addrlen)) {
			e = errno;
			close(s->fd);
			s->fd = -1;
		}
	}
	freeaddrinfo(res);
	if (s->fd < 0) {
		snprintf(msg, sizeof(msg), "cannot connect to '%s': %s",
		    s->host, strerror(e));
		git_error_set_str(GIT_ERROR_NET, msg);
		return -1;
	}
	return 0;
}

static ssize_t
gs_read(git_stream *st, void *data, size_t len)
{
	struct guard_stream *s = (struct guard_stream *)st;
	ssize_t n;

	while ((n = recv(s->fd, data, len, 0)) < 0 && errno == EINTR)
		;
	if (n < 0)
		git_error_set_str(GIT_ERROR_NET, strerror(errno));
	return n;
}

static ssize_t
gs_write(git_stream *st, const char *data, size_t len, int flags)
{
	struct guard_stream *s = (struct guard_stream *)st;
	ssize_t n;

	(void)flags;
	while ((n = send(s->fd, data, len, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	if (n < 0)
		git_error_set_str(GIT_ERROR_NET, strerror(errno));
	return n;
}

static int
gs_close(git_stream *st)
{
	struct guard_stream *s = (struct guard_stream *)st;

	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	return 0;
}

static void
gs_free(git_stream *st)
{
	struct guard_stream *s = (struct guard_stream *)st;

	gs_close(st);
	free(s->host);
	free(s->port);
	free(s);
}

static int
gs_init(git_stream **out, const char *host, const char *port)
{
	struct guard_stream *s = uk_util_xcalloc(1, sizeof(*s));

	s->parent.version = GIT_STREAM_VERSION;
	s->parent.connect = gs_connect;
	s->parent.read = gs_read;
	s->parent.write = gs_write;
	s->parent.close = gs_close;
	s->parent.free = gs_free;
	s->host = uk_util_xstrdup(host);
	s->port = uk_util_xstrdup(port);
	s->fd = -1;
	*out = &s->parent;
	return 0;
}

static void
clone_child(const char *url, const char *dir, int fd,
    const struct uk_repo_opts *o)
{
	git_stream_registration reg;

	git_clone_options co;
	git_repository *repo = NULL;
	const git_error *ge;
	size_t n;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	git_libgit2_init();
	git_clone_options_init(&co, GIT_CLONE_OPTIONS_VERSION);
	child_max = o->max_bytes;
	co.bare = 1;
	/* libgit2 would follow a redirect to another host by itself, past
	 * the guard, which judged this URL's host only (guard_host): the
	 * redirects were followed before (git_redirects, each hop judged),
	 * and libgit2 follows none to another host.  (NONE still lets it
	 * follow one on the same host, whose addresses the guard judged.) */
	co.fetch_opts.follow_redirects = GIT_REMOTE_REDIRECT_NONE;
	co.fetch_opts.callbacks.transfer_progress = child_progress;
	if (o->insecure)
		co.fetch_opts.callbacks.certificate_check = accept_cert;
	if (!o->allow_private) {
		memset(&reg, 0, sizeof(reg));
		reg.version = GIT_STREAM_VERSION;
		reg.init = gs_init;
		if (git_stream_register(GIT_STREAM_STANDARD, &reg) < 0)
			_exit(1);
	}
	if (git_clone(&repo, url, dir, &co) == 0)
		_exit(0);
	ge = git_error_last();
	if (child_too_big)
		_exit(4);
	if (ge && ge->message) {
		n = strlen(ge->message);
		if (write(fd, ge->message, n) < 0)
			_exit(1);
	}
	_exit(1);
}

/* Refuse a remote URL whose host resolves to a private address. */
static int
guard_host(const char *url, const struct uk_repo_opts *o, struct uk_err *err)
{
	CURLU *h;
	char *host = NULL;
	struct addrinfo hints, *res = NULL, *ai;
	struct uk_netguard g;
	int ret = 0;
	char addr[64];

	if (o->allow_private)
		return 0;
	uk_netguard_init(&g);
	h = curl_url();
	if (!h || curl_url_set(h, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
		curl_url_cleanup(h);
		return uk_util_err_set(err, UK_EXIT_FAIL, "'%s': bad URL", url);
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if (host[0] == '[') {
		size_t l = strlen(host);

		memmove(host, host + 1, l - 1);
		host[l - 2] = '\0';
	}
	if (getaddrinfo(host, NULL, &hints, &res) != 0) {
		ret = uk_util_err_set(err, UK_EXIT_FAIL, "'%s': cannot resolve",
		    host);
		goto out;
	}
	for (ai = res; ai; ai = ai->ai_next)
		if (!uk_netguard_check(&g, ai->ai_addr, addr, sizeof(addr))) {
			ret = uk_util_err_set(err, UK_EXIT_FAIL,
			    "'%s': address %s refused (private network; "
			    "URLKIT_ALLOW_PRIVATE=1 allows it)",
			    url, addr);
			break;
		}
out:
	if (res)
		freeaddrinfo(res);
	curl_free(host);
	curl_url_cleanup(h);
	return ret;
}

/* A signal caught during the probe (fetch_git's handlers) ends it. */
static int
probe_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	(void)arg;
	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return caught ? 1 : 0;
}

/* The probe's body is not wanted: stop at its first byte. */
static size_t
probe_body(char *p, size_t size, size_t n, void *arg)
{
	(void)p;
	(void)size;
	(void)n;
	(void)arg;
	return 0;
}

/*
 * The repository URL a redirect names: libgit2 and git take a Location
 * that ends in /info/refs (the query aside) as the new repository's
 * address less that suffix, and refuse any other; so do we, and, as
 * libgit2 does, a redirect from https to http.  0 with *next (freed by
 * the caller), or -1 with err.
 */
static int
redirect_target(const char *from, const char *loc, char **next,
    struct uk_err *err)
{
	CURLU *h = curl_url();
	char *scheme = NULL, *path = NULL, *out = NULL;
	size_t l;
	int ret = -1;

	if (!h || curl_url_set(h, CURLUPART_URL, loc, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
		uk_util_err_set(err, UK_EXIT_FAIL, "'%s': bad redirect to '%s'",
		    from, loc);
		goto out;
	}
	if (strcasecmp(scheme, "http") && strcasecmp(scheme, "https")) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "'%s': redirect to '%s' refused (http and https only)",
		    from, loc);
		goto out;
	}
	if (!strncasecmp(from, "https:", 6) && strcasecmp(scheme, "https")) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "'%s': redirect from https to '%s' refused", from, loc);
		goto out;
	}
	l = strlen(path);
	if (l < 10 || strcmp(path + l - 10, "/info/refs")) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "'%s': redirect to '%s' does not name a git repository "
		    "(no /info/refs)",
		    from, loc);
		goto out;
	}
	/* The path starts with '/': "/info/refs" leaves "/". */
	path[l > 10 ? l - 10 : 1] = '\0';
	if (curl_url_set(h, CURLUPART_PATH, path, 0) != CURLUE_OK ||
	    curl_url_set(h, CURLUPART_QUERY, NULL, 0) != CURLUE_OK ||
	    curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_URL, &out, 0) != CURLUE_OK) {
		uk_util_err_set(err, UK_EXIT_FAIL, "'%s': bad redirect to '%s'",
		    from, loc);
		goto out;
	}
	*next = uk_util_xstrdup(out);
	ret = 0;
out:
	curl_free(out);
	curl_free(path);
	curl_free(scheme);
	curl_url_cleanup(h);
	return ret;
}

/*
 * Follow the redirects of a git URL here, each hop judged, as the http
 * route does, and return the URL to clone (*final, freed by the caller).
 * libgit2 would follow a redirect of its first request (the ref
 * advertisement, <url>/info/refs?service=git-upload-pack) by itself and
 * connect past the guard, which only judged the URL it was given; so
 * that request is made first with libcurl, redirects off, the guard on
 * every connection (uk_netguard_install) and on each new host before
 * (guard_host), up to UK_HTTP_MAX_REDIRS hops as the http route.  Its
 * body is not read.  git:// and ssh:// have no redirects.  A probe that
 * fails otherwise (refused, 401, 404) leaves the URL as it is: libgit2
 * meets the same answer and says what it is.  0, or -1 with err.
 */
/*
 * The URL libgit2 asks first of the git server at cur,
 * <cur>/info/refs?service=git-upload-pack: curl's string (curl_free), or
 * NULL with err for a URL curl cannot take apart.
 */
static char *
probe_url(const char *cur, struct uk_err *err)
{
	CURLU *h;
	char *probe = NULL, *path = NULL;
	struct uk_buf p = UK_BUF_INIT;

	/* <url>/info/refs?service=git-upload-pack, as libgit2 asks. */
	h = curl_url();
	if (!h || curl_url_set(h, CURLUPART_URL, cur, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
		curl_url_cleanup(h);
		uk_util_err_set(err, UK_EXIT_FAIL, "'%s': bad URL", cur);
		return NULL;
	}
	uk_buf_addstr(&p, path);
	while (p.len && p.buf[p.len - 1] == '/')
		uk_buf_setlen(&p, p.len - 1);
	uk_buf_addstr(&p, "/info/refs");
	curl_free(path);
	if (curl_url_set(h, CURLUPART_PATH, p.buf, 0) != CURLUE_OK ||
	    curl_url_set(h, CURLUPART_QUERY,
		"service=git-upload-pack", 0) != CURLUE_OK ||
	    curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0) != CURLUE_OK ||
	    curl_url_get(h, CURLUPART_URL, &probe, 0) != CURLUE_OK) {
		curl_url_cleanup(h);
		uk_buf_release(&p);
		uk_util_err_set(err, UK_EXIT_FAIL, "'%s': bad URL", cur);
		return NULL;
	}
	curl_url_cleanup(h);
	uk_buf_release(&p);
	return probe;
}

static int
git_redirects(const char *url, struct snap *s, char **final,
    struct uk_err *err)
{
	char *cur = uk_util_xstrdup(url);
	int hops, ret = -1;

	for (hops = 0;; hops++) {
		struct uk_netguard g;
		struct uk_http_easy eo = { 0 };
		CURL *e = NULL;
		char *probe = NULL, *loc = NULL, *next = NULL;
		char errbuf[CURL_ERROR_SIZE] = "";
		long code = 0, ms;
		CURLcode rc;
		int stop = 0;

		if (guard_host(cur, s->o, err) < 0) {
			if (hops) {
				struct uk_err why = *err;

				uk_util_err_set(err, why.code,
				    "'%s' redirected: %s", url, why.msg);
			}
			goto out;
		}
		if (strncasecmp(cur, "http://", 7) &&
		    strncasecmp(cur, "https://", 8))
			break;
		ms = (long)((s->deadline - uk_util_mono_now()) * 1000);
		if (ms <= 0) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "time limit of %gs reached cloning '%s'",
			    s->o->timeout, url);
			goto out;
		}
		if (!(probe = probe_url(cur, err)))
			goto out;

		uk_netguard_init(&g);
		if (s->o->allow_private)
			g.allow_private = 1;
		/* A git client's agent: the server answers as it would
		 * answer libgit2. */
		eo.user_agent = "git/2.0 (urlkit/" UK_VERSION ")";
		eo.timeout_ms = ms;
		eo.connect_ms = ms < 10000 ? ms : 10000L;
		eo.insecure = s->o->insecure;
		eo.errbuf = errbuf;
		eo.guard = &g;
		e = uk_http_easy_new(&eo);
		curl_easy_setopt(e, CURLOPT_URL, probe);
		curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, probe_body);
		curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
		curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, probe_progress);
		rc = curl_easy_perform(e);
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
		if (caught) {
			stop = -1;
		} else if (g.refused) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "%s%s%s'%s': address %s refused (private network; "
			    "URLKIT_ALLOW_PRIVATE=1 allows it)",
			    hops ? "'" : "", hops ? url : "",
			    hops ? "' redirected: " : "", cur, g.addr);
			stop = -1;
		} else if (rc == CURLE_OPERATION_TIMEDOUT) {
			uk_util_err_set(err, UK_EXIT_FAIL,
			    "time limit of %gs reached cloning '%s'",
			    s->o->timeout, url);
			stop = -1;
		} else if ((rc == CURLE_OK || rc == CURLE_WRITE_ERROR) &&
		    (code == 301 || code == 302 || code == 303 ||
			code == 307 || code == 308) &&
		    curl_easy_getinfo(e, CURLINFO_REDIRECT_URL, &loc) ==
			CURLE_OK &&
		    loc) {
			if (hops >= UK_HTTP_MAX_REDIRS) {
				uk_util_err_set(err, UK_EXIT_FAIL,
				    "'%s': too many redirects (more than %d)",
				    url, UK_HTTP_MAX_REDIRS);
				stop = -1;
			} else if (redirect_target(cur, loc, &next, err) < 0)
				stop = -1;
		} else
			stop = 1; /* not a redirect: clone cur */
		curl_easy_cleanup(e);
		curl_free(probe);
		if (stop < 0)
			goto out;
		if (stop > 0)
			break;
		free(cur);
		cur = next;
	}
	*final = cur;
	cur = NULL;
	ret = 0;
out:
	free(cur);
	return ret;
}

static int
clone_read(const char *url, struct snap *s, struct uk_err *err)
{
	const char *tmp = getenv("TMPDIR");
	struct uk_buf dir = UK_BUF_INIT, msg = UK_BUF_INIT;
	struct sigaction sa, old[3];
	static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
	int fds[2] = { -1, -1 }, status = 0, ret = -1, i, got = 0;
	pid_t pid;
	char *final = NULL;

	/* The signal handlers are process-wide: one clone at a time. */
	pthread_mutex_lock(&clone_lock);
	uk_buf_addf(&dir, "%s/urlkit-repo.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	caught = 0;
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	if (!mkdtemp(dir.buf)) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "cannot make a directory in '%s': %s",
		    tmp && *tmp ? tmp : "/tmp", strerror(errno));
		uk_buf_release(&dir);
		goto restore;
	}
	/* Within the step: a signal meanwhile ends it as during the clone. */
	if (git_redirects(url, s, &final, err) < 0) {
		if (caught)
			uk_util_err_set(err, UK_EXIT_FATAL,
			    "interrupted by signal %d", (int)caught);
		goto out;
	}
	url = final;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		uk_util_err_set(err, UK_EXIT_FAIL, "pipe: %s", strerror(errno));
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		uk_util_err_set(err, UK_EXIT_FAIL, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		close(fds[0]);
		clone_child(url, dir.buf, uk_child_keep_fd(fds[1]), s->o);
	}
	close(fds[1]);
	fds[1] = -1;
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };
		char chunk[512];
		ssize_t n;
		pid_t w = waitpid(pid, &status, WNOHANG);

		while ((n = read(fds[0], chunk, sizeof(chunk))) > 0)
			if (msg.len < 400)
				uk_buf_add(&msg, chunk, (size_t)n);
		if (w == pid) {
			got = 1;
			break;
		}
		if (caught || uk_util_mono_now() > s->deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		nanosleep(&ts, NULL);
	}
	if (caught) {
		uk_util_err_set(err, UK_EXIT_FATAL, "interrupted by signal %d",
		    (int)caught);
	} else if (!got) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "time limit of %gs reached cloning '%s'", s->o->timeout,
		    url);
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 4) {
		uk_util_err_set(err, UK_EXIT_FAIL,
		    "repository '%s' is larger than %llu bytes "
		    "(--repo-max-size)",
		    url, s->o->max_bytes);
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		uk_buf_trim(&msg);
		uk_util_err_set(err, UK_EXIT_FAIL, "cannot clone '%s': %s", url,
		    msg.len ? msg.buf : "libgit2 failed");
	} else {
		/* The child is gone: threads may start now (see above). */
		uk_repo_snap_stream_start(s);
		ret = read_repo(dir.buf, 1, s, err);
	}
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	rm_tree(dir.buf);
	uk_buf_release(&dir);
restore:
	uk_buf_release(&msg);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	pthread_mutex_unlock(&clone_lock);
	if (caught) {
		/* Cleaned up: now die of the signal as we would have. */
		raise(caught);
	}
	free(final);
	return ret;
}

static int
local_read(const char *url, struct snap *s, struct uk_err *err)
{
	struct uk_buf path = UK_BUF_INIT;
	int ret;

	if (!strncasecmp(url, "file://", 7)) {
		CURLU *h = curl_url();
		char *p = NULL;

		if (!h || curl_url_set(h, CURLUPART_URL, url, 0) != CURLUE_OK ||
		    curl_url_get(h, CURLUPART_PATH, &p, CURLU_URLDECODE) !=
			CURLUE_OK) {
			curl_url_cleanup(h);
			return uk_util_err_set(err, UK_EXIT_FAIL,
			    "'%s': bad URL", url);
		}
		uk_buf_addstr(&path, p);
		curl_free(p);
		curl_url_cleanup(h);
	} else {
		uk_buf_addstr(&path, url);
	}
	ret = read_repo(path.buf, 0, s, err);
	uk_buf_release(&path);
	return ret;
}

/*
 * libgit2 is started for these routes only: git_libgit2_init loads the
 * system's CA certificates for its TLS (35 to 45 ms of CPU measured on
 * the development machine), which the archive route, through curl, does
 * not need.
 */
int
uk_repo_git_fetch(const char *url, int local, struct snap *s,
    struct uk_err *err)
{
	int r;

	git_libgit2_init();
	r = local ? local_read(url, s, err) : clone_read(url, s, err);
	git_libgit2_shutdown();
	return r;
}

/* The body of the ref advertisement, up to REFS_MAX bytes. */
#define REFS_MAX (8u << 20)

/* Whether the advertisement adv names ref whole, after " " (pkt-lines). */
static int
advertises(const struct uk_buf *adv, const char *prefix, const char *ref)
{
	struct uk_buf want = UK_BUF_INIT;
	const char *p = adv->buf, *end = adv->buf + adv->len;
	int found = 0;

	uk_buf_addf(&want, " %s%s", prefix, ref);
	while (!found && p < end &&
	    (p = memmem(p, (size_t)(end - p), want.buf, want.len))) {
		const char *after = p + want.len;

		/* The name ends the line, or its capabilities follow. */
		found = after < end && (*after == '\n' || *after == '\0');
		p = after;
	}
	uk_buf_release(&want);
	return found;
}

/* Whether ref is written as a commit id: 7 to 40 hexadecimal digits. */
static int
commit_id(const char *ref)
{
	size_t n = strspn(ref, "0123456789abcdefABCDEF");

	return n >= 7 && n <= 40 && !ref[n];
}

const char *
uk_repo_git_ref_kind(const char *owner, const char *repo, const char *ref,
    const struct snap *s)
{
	const char *base = getenv("URLKIT_GITHUB_GIT_URL");
	const char *archives = getenv("URLKIT_GITHUB_ARCHIVE_URL");
	struct uk_buf url = UK_BUF_INIT, adv = UK_BUF_INIT;
	struct uk_http_sink sink = { &adv, REFS_MAX };
	struct uk_netguard guard;
	struct uk_http_easy eo = { 0 };
	const char *kind = NULL;
	char errbuf[CURL_ERROR_SIZE];
	double left = s->deadline - uk_util_mono_now();
	long status = 0;
	char *esc;
	CURL *e;

	/*
	 * The archives from another host than GitHub's (a mirror, a test
	 * server) and no git host named: github.com's refs would be of
	 * another repository than the one read.
	 */
	if ((!base || !*base) && archives && *archives)
		return commit_id(ref) ? "commit" : NULL;
	if (!base || !*base)
		base = "https://github.com";
	if (left <= 0)
		return commit_id(ref) ? "commit" : NULL;
	uk_netguard_init(&guard);
	if (s->o->allow_private)
		guard.allow_private = 1;
	eo.follow = 1;
	eo.max_redirs = 5;
	eo.timeout_ms = (long)((left < 10 ? left : 10) * 1000) + 1;
	eo.user_agent = "urlkit/" UK_VERSION;
	eo.insecure = s->o->insecure;
	eo.errbuf = errbuf;
	eo.guard = &guard;
	e = uk_http_easy_new(&eo);
	uk_buf_addstr(&url, base);
	while (url.len && url.buf[url.len - 1] == '/')
		uk_buf_setlen(&url, url.len - 1);
	esc = curl_easy_escape(e, owner, 0);
	uk_buf_addf(&url, "/%s/", esc ? esc : "");
	curl_free(esc);
	esc = curl_easy_escape(e, repo, 0);
	uk_buf_addf(&url, "%s.git/info/refs?service=git-upload-pack",
	    esc ? esc : "");
	curl_free(esc);
	curl_easy_setopt(e, CURLOPT_URL, url.buf);
	curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, uk_http_sink_write);
	curl_easy_setopt(e, CURLOPT_WRITEDATA, &sink);
	if (curl_easy_perform(e) == CURLE_OK &&
	    curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status) ==
		CURLE_OK &&
	    status == 200 && adv.len) {
		/* GitHub takes a branch first, then a tag, then a commit. */
		if (advertises(&adv, "refs/heads/", ref))
			kind = "branch";
		else if (advertises(&adv, "refs/tags/", ref))
			kind = "tag";
	}
	if (!kind && commit_id(ref))
		kind = "commit";
	curl_easy_cleanup(e);
	uk_buf_release(&url);
	uk_buf_release(&adv);
	return kind;
}
