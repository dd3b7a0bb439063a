// SPDX-License-Identifier: MIT
// node service.mjs DIR: the seed's "URL Service" test list
// (../shared/seeds/url-handling.md, Testing) through the protocol:
// urlserve over stdio, driven by the SDK's Client, against a loopback
// fixture server that also stands in for GitHub's raw host and for the
// summary model (an OpenAI-compatible chat-completions endpoint).  The
// cache is the one the command-line tools share: urlfetch and urlcache
// are run beside it.  One JSON line per check; tests/urlserve-service.bats
// reads them.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import {
	attempt, check, connectStdio, startFixture, UK_BIN,
} from './lib.mjs';

const T = { timeout: 15000 };
let s, fx;

const call = (name, args = {}) =>
	s.client.callTool({ name, arguments: args }, undefined, T);
const text = (r) => (r.content || []).filter((c) => c.type === 'text')
	.map((c) => c.text).join('\n');
const fetched = async () =>
	(await call('get_fetched_urls')).structuredContent;
const inFetched = async (u) => JSON.stringify(await fetched())
	.includes(JSON.stringify(u));
// The cache as the other programs see it: `urlcache get URL` exits 0 on a
// hit.
const cached = (u) => spawnSync(path.join(UK_BIN, 'urlcache'), ['get', u],
	{ encoding: 'utf8' });
const n = (p) => fx.counts.get(p) || 0;

async function detect() {
	const t = 'see https://github.com/octo/demo and ' +
	    'https://docs.python.org/3/library/os.html, https://example.com/x ' +
	    'and https://github.com/octo/demo/issues/7.';
	const r = await call('detect_urls', { text: t });
	const got = JSON.stringify(r.structuredContent);
	const types = ['github_repo', 'documentation', 'web', 'github_issue'];
	check('detect_urls returns classified results', !r.isError &&
	    types.every((ty) => got.includes(`"${ty}"`)) &&
	    got.includes('"https://example.com/x"'),
	    { result: r.structuredContent });
}

async function detectAndFetch() {
	const a = fx.base + '/article-df1.html';
	const b = fx.base + '/docs/df2';
	const c = fx.base + '/status/404';
	const r = await call('detect_and_fetch',
	    { text: `read ${a}, ${b} and ${c} please` });
	const res = (r.structuredContent || {}).results || [];
	const by = (u) => res.find((x) => x.url === u) || {};
	check('detect_and_fetch returns results for all URLs', res.length === 3 &&
	    /Quiet Harbour/.test(by(a).title) && by(b).content &&
	    typeof by(c).error === 'string',
	    { urls: res.map((x) => [x.url, x.error || x.title]) });

	const urls = [1, 2, 3, 4, 5].map((i) => `${fx.base}/article-lim${i}.html`);
	const r2 = await call('detect_and_fetch', { text: urls.join(' ') });
	const res2 = (r2.structuredContent || {}).results || [];
	const got = urls.filter((u) => n(new URL(u).pathname) === 1);
	const skipped = res2.filter((x) => x.error || x.skipped);
	check('detect_and_fetch: the per-message limit of 3 URLs',
	    res2.length === 5 && got.length === 3 && skipped.length === 2 &&
	    skipped.every((x) => /limit|skip/i.test(JSON.stringify(x))),
	    { fetched: got, skipped });
}

async function content() {
	const u = fx.base + '/article-gc.html';
	let r = await call('get_url_content', { url: u });
	check('get_url_content: an error for an unfetched URL', r.isError === true &&
	    text(r).length > 0 && n('/article-gc.html') === 0, { text: text(r) });
	await call('fetch_url', { url: u });
	r = await call('get_url_content', { url: u });
	check('get_url_content: the content of a fetched URL', !r.isError &&
	    /harbour was quiet/.test(JSON.stringify(r.structuredContent)) &&
	    n('/article-gc.html') === 1, { isError: r.isError });

	// Fetched by urlfetch, never by this session: from the cache.
	const v = fx.base + '/article-fs.html';
	// (Not spawnSync: the fixture server answering it is in this process.)
	const f = await new Promise((resolve) => {
		const c = spawn(path.join(UK_BIN, 'urlfetch'), [],
		    { stdio: ['pipe', 'ignore', 'pipe'] });
		let err = '';
		c.stderr.on('data', (d) => { err += d; });
		c.on('close', (status) => resolve({ status, stderr: err }));
		c.stdin.end(v + '\n');
	});
	r = await call('get_url_content', { url: v });
	check('get_url_content falls back to the cache', f.status === 0 &&
	    !r.isError && !(await inFetched(v)) &&
	    /harbour was quiet/.test(JSON.stringify(r.structuredContent)) &&
	    n('/article-fs.html') === 1,
	    { urlfetch: f.status, stderr: f.stderr, isError: r.isError,
	      text: text(r).slice(0, 200) });
}

async function removeInvalidate() {
	const u = fx.base + '/article-rm.html';
	await call('fetch_url', { url: u });
	const before = await inFetched(u);
	let r = await call('remove_fetched_url', { url: u });
	const g = await call('get_url_content', { url: u });
	check('remove_fetched removes from the fetched set only; the cache keeps it',
	    before && !r.isError && !(await inFetched(u)) &&
	    cached(u).status === 0 && !g.isError && n('/article-rm.html') === 1,
	    { before, result: r.structuredContent, urlcache: cached(u).status });

	const v = fx.base + '/article-inv.html';
	await call('fetch_url', { url: v });
	r = await call('invalidate_url_cache', { url: v });
	const g2 = await call('get_url_content', { url: v });
	check('invalidate removes from both the cache and the fetched set',
	    !r.isError && !(await inFetched(v)) && cached(v).status !== 0 &&
	    g2.isError === true,
	    { result: r.structuredContent, urlcache: cached(v).status });
}

async function fetchedSet() {
	// A new session starts with an empty set (the server's process is
	// new; no -S).
	const t = await connectStdio([], { env: {} });
	const e = (await t.client.callTool({ name: 'get_fetched_urls',
	    arguments: {} })).structuredContent;
	await t.close();
	const empty = JSON.stringify(e);
	const a = fx.base + '/article-fa.html', b = fx.base + '/article-fb.html';
	await call('fetch_url', { url: a });
	await call('fetch_url', { url: b });
	const both = (await inFetched(a)) && (await inFetched(b));
	await call('remove_fetched_url', { url: a });
	const one = !(await inFetched(a)) && (await inFetched(b));
	const r = await call('clear_fetched');
	const none = !(await inFetched(b));
	check('get_fetched_urls: empty at first; remove_fetched and clear_fetched',
	    !/https?:/.test(empty) && both && one && none && !r.isError &&
	    cached(b).status === 0,
	    { initially: e, both, one, none });
}

// -S NAME: the fetched set is the urlcache session NAME, which urlcache
// sees and a restarted server finds again.
async function namedSession() {
	const u = fx.base + '/article-ses.html';
	let t = await connectStdio(['-S', 'svc']);
	await t.client.callTool({ name: 'fetch_url', arguments: { url: u } });
	await t.close();
	const g = spawnSync(path.join(UK_BIN, 'urlcache'),
	    ['session', 'svc', 'list'], { encoding: 'utf8' });
	t = await connectStdio(['-S', 'svc']);
	const r = await t.client.callTool({ name: 'get_fetched_urls',
	    arguments: {} });
	await t.close();
	check('-S NAME: the fetched set is the urlcache session, kept across restarts',
	    g.status === 0 && g.stdout.includes(u) &&
	    JSON.stringify(r.structuredContent).includes(JSON.stringify(u)),
	    { urlcache: g.status, session: g.stdout.slice(0, 300),
	      after: r.structuredContent });
}

async function format() {
	const a = fx.base + '/article-ctx1.html', b = fx.base + '/docs/ctx2';
	const c = fx.base + '/article-ctx3.html', bad = fx.base + '/status/404?ctx';
	for (const u of [a, b, c, bad])
		await call('fetch_url', { url: u });
	let r = await call('format_url_context', { urls: [a, b, bad] });
	const t = text(r);
	check('format_url_context joins the URLs with a separator',
	    !r.isError && t.includes(a) && t.includes(b) &&
	    /\n---\n/.test(t) && t.indexOf(a) < t.indexOf(b),
	    { text: t.slice(0, 400) });
	// As urlsum -c: a record with an error gives no content, only a line
	// under its URL that names the error.
	const tail = t.slice(t.indexOf('## ' + bad));
	check('format_url_context skips errors (named, no content)',
	    t.includes('## ' + bad) &&
	    /^## \S+\n\n\(left out: HTTP 404\)\n*$/.test(tail),
	    { text: t.slice(-300) });
	r = await call('format_url_context', { excluded: [a] });
	const t2 = text(r);
	check('format_url_context excludes the URLs named', !r.isError &&
	    !t2.includes(a) && t2.includes(c), { text: t2.slice(0, 400) });
}

async function cacheUse() {
	const u = fx.base + '/article-cu.html';
	await call('fetch_url', { url: u });
	let r = await call('fetch_url', { url: u });
	const hit = r.structuredContent.cached === true &&
	    n('/article-cu.html') === 1;
	r = await call('fetch_url', { url: u, use_cache: false });
	check('fetch uses the cache when available; use_cache false fetches again',
	    hit && !r.isError && n('/article-cu.html') === 2,
	    { requests: n('/article-cu.html') });

	// (410: a status urlfetch does not retry.)
	const e = fx.base + '/status/410';
	r = await call('fetch_url', { url: e });
	const r2 = await call('fetch_url', { url: e });
	check('error results are not cached', r.isError === true &&
	    r2.isError === true && n('/status/410') === 2 &&
	    cached(e).status !== 0,
	    { requests: n('/status/410'), text: text(r2) });
}

async function github() {
	const u = 'https://github.com/octo/demo/blob/main/src/hello.py';
	const r = await call('fetch_url', { url: u });
	const sc = r.structuredContent || {};
	check('GitHub file fetch with the main/master fallback', !r.isError &&
	    /def hello/.test(sc.content) && sc.url_type === 'github_file' &&
	    n('/raw/octo/demo/main/src/hello.py') === 1 &&
	    n('/raw/octo/demo/master/src/hello.py') === 1,
	    { result: sc, text: text(r).slice(0, 200) });
}

async function summary() {
	const u = fx.base + '/article-sum.html';
	const r = await call('fetch_url', { url: u, summarize: true });
	const sc = r.structuredContent || {};
	const llm = fx.counts.get('/v1/chat/completions') || 0;
	const c = cached(u);
	let entry = {};
	try {
		entry = JSON.parse(c.stdout);
	} catch { /* checked below */ }
	const r2 = await call('fetch_url', { url: u, summarize: true });
	check('summarization via the stand-in model; ' +
	    'the summary is written back to the cache',
	    !r.isError && /STAND-IN SUMMARY/.test(sc.summary) && llm === 1 &&
	    /STAND-IN SUMMARY/.test(entry.summary) &&
	    /STAND-IN SUMMARY/.test(r2.structuredContent.summary) &&
	    (fx.counts.get('/v1/chat/completions') || 0) === 1 &&
	    text(r).includes('STAND-IN SUMMARY'),
	    { summary: sc.summary, llmRequests: llm, cacheEntry: entry.summary,
	      text: text(r).slice(0, 300) });
}

async function clearAll() {
	const u = fx.base + '/article-clr.html';
	await call('fetch_url', { url: u });
	const r = await call('clear_url_cache');
	check('clear_url_cache removes everything from both', !r.isError &&
	    !(await inFetched(u)) && cached(u).status !== 0,
	    { result: r.structuredContent });
}

async function main() {
	fx = await startFixture();
	process.env.URLKIT_GITHUB_RAW_URL = fx.base + '/raw';
	process.env.URLKIT_GITHUB_API_URL = fx.base + '/api';
	process.env.URLKIT_GITHUB_URL = fx.base + '/gh';
	process.env.URLKIT_LLM_URL = fx.base + '/v1';
	process.env.URLKIT_ALLOW_PRIVATE = '127.0.0.1';
	await attempt('connect', async () => {
		s = await connectStdio([]);
		for (const f of [detect, detectAndFetch, content, removeInvalidate,
		    fetchedSet, namedSession, format, cacheUse, github, summary, clearAll])
			await attempt(f.name, f);
		await s.close();
	});
	fx.close();
}

main().then(() => process.exit(0), (e) => {
	check('driver', false, { error: String(e && e.stack || e) });
	process.exit(1);
});
