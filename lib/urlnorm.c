/* SPDX-License-Identifier: MIT */
/* The normal form of a URL, through libcurl's URL API. */
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "urlnorm.h"
#include "util.h"
#include "banned.h"

/* Whether the query parameter p[0..n) (name=value) is a tracking one. */
static int
tracking(const char *p, size_t n)
{
	static const char *const names[] = { "gclid", "fbclid", "msclkid",
		"mc_cid", "mc_eid", "_ga", "yclid" };
	const char *eq = memchr(p, '=', n);
	size_t k = eq ? (size_t)(eq - p) : n, i;

	if (k > 4 && strncasecmp(p, "utm_", 4) == 0)
		return 1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == k && strncasecmp(p, names[i], k) == 0)
			return 1;
	return 0;
}

/* The query q without its tracking parameters, in b. */
static void
clean_query(const char *q, struct uk_buf *b)
{
	const char *p = q, *amp;
	size_t n;

	while (*p) {
		amp = strchr(p, '&');
		n = amp ? (size_t)(amp - p) : strlen(p);
		if (n && !tracking(p, n)) {
			if (b->len)
				uk_buf_addch(b, '&');
			uk_buf_add(b, p, n);
		}
		p += n + (amp != NULL);
	}
}

char *
uk_urlnorm(const char *url)
{
	CURLU *h = curl_url();
	char *scheme = NULL, *path = NULL, *query = NULL, *out = NULL, *slash;
	struct uk_buf b = UK_BUF_INIT;

	if (!h)
		uk_util_die(UK_EXIT_FATAL, "out of memory");
	if (curl_url_set(h, CURLUPART_URL, url, 0) ||
	    curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) ||
	    (strcmp(scheme, "http") && strcmp(scheme, "https")))
		goto out;
	curl_url_set(h, CURLUPART_FRAGMENT, NULL, 0);
	if (curl_url_get(h, CURLUPART_PATH, &path, 0) == CURLUE_OK) {
		slash = strrchr(path, '/');
		if (slash && (strcmp(slash + 1, "index.html") == 0 ||
		    strcmp(slash + 1, "index.htm") == 0)) {
			slash[1] = '\0';
			curl_url_set(h, CURLUPART_PATH, path, 0);
		}
	}
	if (curl_url_get(h, CURLUPART_QUERY, &query, 0) == CURLUE_OK) {
		clean_query(query, &b);
		curl_url_set(h, CURLUPART_QUERY, b.len ? b.buf : NULL, 0);
	}
	if (curl_url_get(h, CURLUPART_URL, &out, CURLU_NO_DEFAULT_PORT))
		out = NULL;
	if (out) {
		/* Host case: curl keeps the host as written. */
		char *host = strstr(out, "://"), *e;

		if (host) {
			host += 3;
			e = host + strcspn(host, "/?#");
			for (; host < e; host++)
				if (*host >= 'A' && *host <= 'Z')
					*host = (char)(*host - 'A' + 'a');
		}
	}
out:
	uk_buf_release(&b);
	curl_free(scheme);
	curl_free(path);
	curl_free(query);
	curl_url_cleanup(h);
	if (out) {
		char *r = uk_util_xstrdup(out);

		curl_free(out);
		return r;
	}
	return NULL;
}
