/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of lib/page (TAP): the page state machine driven over a CDP
 * pipe whose other end is this test playing the browser: a fetch from
 * createTarget to the content record, a load event that comes before the
 * navigation's reply (kept, then replayed), a timeout that says what the
 * page waited for, and replies for a page that is over.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "banned.h"
#include "buf.h"
#include "cdp.h"
#include "json.h"
#include "page.h"
#include "tap.h"
#include "util.h"

static int to_pages[2], from_pages[2];
static struct uk_cdp cdp;
static yajl_val emitted[4];
static char *emitted_msg[4];
static unsigned long emitted_no[4];
static int nemitted;

static void
emit(void *ctx, yajl_val rec, const char *url, const char *msg,
    unsigned long no)
{
	(void)ctx;
	(void)url;
	if (nemitted < 4) {
		emitted[nemitted] = uk_json_copy(rec);
		emitted_msg[nemitted] = msg ? uk_util_xstrdup(msg) : NULL;
		emitted_no[nemitted] = no;
	}
	nemitted++;
}

/* The next command the pages sent: its method (static), its id. */
static const char *
command(long long *id, char *session, size_t size)
{
	static char method[128];
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val v;
	char c;

	/* Two seconds for each byte: a command that never comes is "". */
	for (;;) {
		struct pollfd pf = { from_pages[0], POLLIN, 0 };

		if (poll(&pf, 1, 2000) != 1 ||
		    read(from_pages[0], &c, 1) != 1 || !c)
			break;
		uk_buf_addch(&b, c);
	}
	v = uk_json_parse(b.buf ? b.buf : "", b.len, &err);
	*method = '\0';
	*id = 0;
	if (v) {
		snprintf(method, sizeof(method), "%s",
		    uk_json_get_str(v, "method") ?
			uk_json_get_str(v, "method") :
			"");
		uk_json_get_int(v, "id", id);
		if (session)
			snprintf(session, size, "%s",
			    uk_json_get_str(v, "sessionId") ?
				uk_json_get_str(v, "sessionId") :
				"");
	}
	uk_json_free(v);
	uk_buf_release(&b);
	return method;
}

/* Say json to the pages, and let them take what it says. */
static void
say(struct uk_pages *ps, const char *json)
{
	struct uk_buf b = UK_BUF_INIT;
	struct uk_err err;
	yajl_val m;

	uk_buf_addstr(&b, json);
	uk_buf_addch(&b, '\0');
	if (write(to_pages[1], b.buf, b.len) != (ssize_t)b.len)
		exit(2);
	uk_buf_release(&b);
	while (uk_cdp_next(&cdp, 1, &m, &err) == 1) {
		uk_page_events_dispatch(ps, m);
		uk_json_free(m);
		if (!uk_cdp_ready(&cdp))
			break;
	}
}

/* The reply to command id. */
static void
reply(struct uk_pages *ps, long long id, const char *result)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b, "{\"id\":%lld,\"result\":%s}", id, result);
	say(ps, b.buf);
	uk_buf_release(&b);
}

/* The load event of frame F, loader loader, in session S1. */
static void
load_event(struct uk_pages *ps, const char *frame, const char *loader)
{
	struct uk_buf b = UK_BUF_INIT;

	uk_buf_addf(&b,
	    "{\"method\":\"Page.lifecycleEvent\",\"sessionId\":\"S1\","
	    "\"params\":{\"frameId\":\"%s\",\"loaderId\":\"%s\","
	    "\"name\":\"load\"}}",
	    frame, loader);
	say(ps, b.buf);
	uk_buf_release(&b);
}

/* Answer the command expected with result; 0 when it was that one. */
static int
answer(struct uk_pages *ps, const char *method, const char *result)
{
	long long id;
	int r;

	r = strcmp(command(&id, NULL, 0), method);
	reply(ps, id, result);
	return r;
}

static void
setup(struct uk_pages *ps, double timeout)
{
	struct uk_page_opts o;

	memset(&o, 0, sizeof(o));
	o.cmd = UK_PAGE_FETCH;
	o.timeout = timeout;
	o.jobs = 1;
	if (pipe(to_pages) || pipe(from_pages))
		exit(2);
	uk_cdp_init_pipe(&cdp, to_pages[0], from_pages[1]);
	uk_page_events_init(ps, &o, &cdp, emit, NULL);
}

static void
teardown(struct uk_pages *ps)
{
	int i;

	uk_page_events_release(ps);
	uk_cdp_release(&cdp);
	close(to_pages[1]);
	close(from_pages[0]);
	for (i = 0; i < nemitted && i < 4; i++) {
		uk_json_free(emitted[i]);
		free(emitted_msg[i]);
	}
	nemitted = 0;
}

static yajl_val
url_record(const char *url)
{
	yajl_val r = uk_json_object();

	uk_json_set_str(r, "url", url);
	return r;
}

#define HTML                                                                   \
	"{\"result\":{\"value\":{\"url\":\"http://a.test/x\",\"status\":200,"  \
	"\"html\":\"<html><head><title>Rendered</title></head><body><p>"       \
	"The text a script wrote.</p></body></html>\"}}}"

/* Up to the navigation: createTarget, attach, the set-up commands. */
static int
open_page(struct uk_pages *ps)
{
	int bad = 0;

	uk_page_events_start(ps, url_record("http://a.test/"), 7);
	bad |= answer(ps, "Target.createTarget", "{\"targetId\":\"T1\"}");
	bad |= answer(ps, "Target.attachToTarget", "{\"sessionId\":\"S1\"}");
	bad |= answer(ps, "Page.enable", "{}");
	bad |= answer(ps, "Page.setLifecycleEventsEnabled", "{}");
	bad |= answer(ps, "Inspector.enable", "{}");
	return bad;
}

static void
test_fetch(void)
{
	struct uk_pages ps;
	long long id;
	const char *m;

	setup(&ps, 30);
	ok(!open_page(&ps), "createTarget, attach, set-up, in that order");
	m = command(&id, NULL, 0);
	ok(!strcmp(m, "Page.navigate"), "then the navigation (%s)", m);
	reply(&ps, id, "{\"frameId\":\"F\",\"loaderId\":\"L\"}");
	/* Another frame's load, then another load's: not the page's. */
	load_event(&ps, "G", "L");
	load_event(&ps, "F", "M");
	ok(ps.ncalls == 0, "other frames' and loads' events change nothing");
	load_event(&ps, "F", "L");
	ok(!answer(&ps, "Runtime.evaluate", HTML),
	    "its own load: the HTML is asked for");
	ok(nemitted == 1 && !emitted_msg[0], "one record, no error");
	ok(nemitted == 1 && emitted_no[0] == 7,
	    "the record comes with the page's number, for the caller's order");
	ok(nemitted == 1 &&
		!strcmp(uk_json_get_str(emitted[0], "title"), "Rendered") &&
		!strcmp(uk_json_get_str(emitted[0], "content"),
		    "The text a script wrote.") &&
		!strcmp(uk_json_get_str(emitted[0], "final_url"),
		    "http://a.test/x") &&
		uk_json_get(emitted[0], "description") &&
		YAJL_IS_NULL(uk_json_get(emitted[0], "description")),
	    "the content record: title, content, final_url, null description");
	m = command(&id, NULL, 0);
	ok(!strcmp(m, "Target.closeTarget") && ps.nactive == 0,
	    "the page is closed and its slot free (%s)", m);
	teardown(&ps);
}

static void
test_replay_and_timeout(void)
{
	struct uk_pages ps;
	long long id;
	const char *m;

	setup(&ps, 2);
	open_page(&ps);
	m = command(&id, NULL, 0);
	/* The load comes before the navigation's reply names its loader. */
	load_event(&ps, "F", "L");
	reply(&ps, id, "{\"frameId\":\"F\",\"loaderId\":\"L\"}");
	m = command(&id, NULL, 0);
	ok(!strcmp(m, "Runtime.evaluate"),
	    "an early load event is kept and replayed (%s)", m);
	/* The HTML never comes: the page times out. */
	uk_page_events_tick(&ps, uk_util_mono_now() + 3);
	ok(nemitted == 1 && emitted_msg[0] &&
		!strcmp(emitted_msg[0],
		    "timeout after 2 s waiting for the page's HTML"),
	    "a timeout says what the page waited for (%s)",
	    nemitted ? emitted_msg[0] : "none");
	ok(nemitted == 1 && emitted_no[0] == 7,
	    "a failed page's record comes with its number too");
	command(&id, NULL, 0); /* Target.closeTarget */
	reply(&ps, id - 1, "{\"result\":{}}");
	ok(nemitted == 1 && ps.nactive == 0,
	    "a reply for a page that is over is dropped");
	teardown(&ps);
}

int
main(void)
{
	test_fetch();
	test_replay_and_timeout();
	return tap_done();
}
