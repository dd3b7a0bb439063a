// SPDX-License-Identifier: MIT
// node sdk.mjs DIR: urlserve driven by the official SDK's Client, over
// stdio and then over HTTP (urlserve -l), in this one node process (node
// costs some 0.3 s of CPU a start): initialize, tools/list with every
// schema compiled, each tool called against a loopback fixture server,
// a long page paged to its end, a slow fetch cancelled, a refused
// address.  Prints one JSON line per check ({"transport", "check", "ok",
// ...}); tests/urlserve-sdk.bats reads them.  DIR: a scratch directory.
import {
	Ajv, addFormats, attempt, check, connectHttp, connectStdio, cpLength,
	LONG_PARAS, setLabel, sleep, startFixture, startHttp,
	StdioClientTransport, types,
} from './lib.mjs';

const dir = process.argv[2];
const TOOLS = ['detect_urls', 'fetch_url', 'detect_and_fetch',
	'get_url_content', 'get_fetched_urls', 'remove_fetched_url',
	'clear_fetched', 'invalidate_url_cache', 'clear_url_cache',
	'format_url_context', 'open_url', 'map_site'];
// A call's timeout: nothing here should take long, and a hang must fail
// the check, not the suite.
const T = { timeout: 15000 };

async function lifecycle(s, want) {
	const v = s.client.getServerVersion();
	const caps = s.client.getServerCapabilities() || {};
	check('initialize', v && v.name === 'urlserve' && v.version &&
	    s.transport && caps.tools && caps.logging,
	    { serverInfo: v, capabilities: caps,
	      protocol: s.transport._protocolVersion ||
	      s.transport.protocolVersion });
	const pong = await s.client.ping();
	check('ping', pong && Object.keys(pong).length === 0, { result: pong });
	const lv = await s.client.setLoggingLevel('info');
	check('logging/setLevel', lv && Object.keys(lv).length === 0,
	    { result: lv });
	return want;
}

async function listTools(s) {
	const { tools } = await s.client.listTools();
	const names = tools.map((t) => t.name);
	const missing = TOOLS.filter((n) => !names.includes(n));
	const extra = names.filter((n) => !TOOLS.includes(n) &&
	    n !== 'render_url');
	check('tools/list', missing.length === 0 && extra.length === 0,
	    { tools: names, missing, extra });
	// Every schema compiles under a strict JSON Schema validator (ajv,
	// strict mode: unknown keywords and loose types are errors), is an
	// object schema, and every tool says what it does.
	const bad = [];
	for (const t of tools) {
		const ajv = new Ajv({ strict: true, allErrors: true });
		addFormats(ajv);
		for (const k of ['inputSchema', 'outputSchema']) {
			if (!t[k]) {
				if (k === 'inputSchema' || t.name !== 'open_url' &&
				    t.name !== 'render_url')
					bad.push(`${t.name}: no ${k}`);
				continue;
			}
			if (t[k].type !== 'object')
				bad.push(`${t.name}.${k}: type is not object`);
			try {
				ajv.compile(t[k]);
			} catch (e) {
				bad.push(`${t.name}.${k}: ${e.message}`);
			}
		}
		if (!t.description)
			bad.push(`${t.name}: no description`);
	}
	check('schemas', bad.length === 0, { bad });
	return tools;
}

// call(S, NAME, ARGS): tools/call through Client.callTool, which checks
// structuredContent against the listed outputSchema itself.
function call(s, name, args, opts = {}) {
	return s.client.callTool({ name, arguments: args }, undefined,
	    { ...T, ...opts });
}

const text = (r) => (r.content || []).filter((c) => c.type === 'text')
	.map((c) => c.text).join('\n');

async function eachTool(s, fx, tools) {
	const a = fx.base + '/article.html';
	const b = fx.base + '/article-b.html';
	let r = await call(s, 'detect_urls', { text: `see ${a} and ${b}.` });
	const urls = (r.structuredContent && (r.structuredContent.urls ||
	    r.structuredContent.results)) || [];
	check('detect_urls', !r.isError && urls.length === 2 &&
	    urls[0].url === a && urls[1].url === b && text(r).length > 0,
	    { result: r.structuredContent });

	r = await call(s, 'fetch_url', { url: a });
	const sc = r.structuredContent || {};
	check('fetch_url', !r.isError && sc.url === a &&
	    /Quiet Harbour/.test(sc.title) && /harbour was quiet/.test(sc.content) &&
	    sc.offset === 0 && sc.next_offset === null &&
	    sc.total_length === cpLength(sc.content) &&
	    text(r).includes(a) && text(r).includes('harbour was quiet'),
	    { result: { ...sc, content: (sc.content || '').slice(0, 80) },
	      text: text(r).slice(0, 200) });
	const hits = fx.counts.get('/article.html');
	r = await call(s, 'fetch_url', { url: a });
	check('fetch_url from the cache', !r.isError &&
	    fx.counts.get('/article.html') === hits &&
	    r.structuredContent.cached === true,
	    { requests: fx.counts.get('/article.html'),
	      cached: r.structuredContent.cached });

	r = await call(s, 'get_url_content', { url: a });
	check('get_url_content', !r.isError &&
	    r.structuredContent.url === a &&
	    /harbour was quiet/.test(JSON.stringify(r.structuredContent)),
	    { isError: r.isError });

	r = await call(s, 'get_fetched_urls', {});
	check('get_fetched_urls', !r.isError &&
	    JSON.stringify(r.structuredContent).includes(a),
	    { result: r.structuredContent });

	const before = fx.counts.get('/article-b.html') || 0;
	r = await call(s, 'detect_and_fetch', { text: `read ${b} now` });
	check('detect_and_fetch', !r.isError &&
	    JSON.stringify(r.structuredContent).includes('/article-b.html') &&
	    fx.counts.get('/article-b.html') === before + 1,
	    { result: JSON.stringify(r.structuredContent).slice(0, 300) });

	r = await call(s, 'format_url_context', {});
	check('format_url_context', !r.isError && text(r).includes(a) &&
	    text(r).includes(b), { text: text(r).slice(0, 300) });

	r = await call(s, 'remove_fetched_url', { url: b });
	check('remove_fetched_url', !r.isError &&
	    !JSON.stringify((await call(s, 'get_fetched_urls', {}))
	    .structuredContent).includes('/article-b.html'),
	    { result: r.structuredContent });

	r = await call(s, 'invalidate_url_cache', { url: b });
	check('invalidate_url_cache', !r.isError, { result: r.structuredContent });

	r = await call(s, 'clear_fetched', {});
	const after = (await call(s, 'get_fetched_urls', {})).structuredContent;
	check('clear_fetched', !r.isError &&
	    !JSON.stringify(after).includes('/article.html'),
	    { result: r.structuredContent, after });

	r = await call(s, 'clear_url_cache', {});
	check('clear_url_cache', !r.isError, { result: r.structuredContent });

	// No toolack serve runs (TOOLACK_URL points at a closed port): a
	// clear error result, not a protocol error nor a hang.
	r = await call(s, 'open_url', { url: a });
	check('open_url without a toolack server', r.isError === true &&
	    text(r).length > 0, { text: text(r) });

	// render_url (listed only when Chromium is found): once, over stdio,
	// and not when MCP_NO_RENDER is set (the sanitized pass of make check:
	// the browser's start is 4 s of the suite's 6 s of CPU, pwfetch's
	// suites test the rendering, and open_url runs urlserve's code for
	// children under the sanitizers).
	if (s.transport instanceof StdioClientTransport &&
	    !process.env.MCP_NO_RENDER &&
	    tools.some((t) => t.name === 'render_url')) {
		r = await call(s, 'render_url', { url: a }, { timeout: 60000 });
		check('render_url', !r.isError &&
		    /harbour was quiet/.test(JSON.stringify(r.structuredContent)),
		    { text: text(r).slice(0, 200) });
	}
}

// Page /long.html with a small max_tokens until next_offset is null; the
// slices put together are the whole content, each begins where the last
// ended, and the text block tells the next offset.
async function paging(s, fx) {
	const u = fx.base + '/long.html';
	let offset = 0, whole = '', pages = 0, total = null;
	const bad = [];
	for (;;) {
		const r = await call(s, 'fetch_url',
		    { url: u, max_tokens: 1000, offset });
		const sc = r.structuredContent;
		if (r.isError || !sc) {
			bad.push(`offset ${offset}: ${text(r)}`);
			break;
		}
		pages++;
		if (sc.offset !== offset)
			bad.push(`asked ${offset}, got offset ${sc.offset}`);
		if (total === null)
			total = sc.total_length;
		else if (sc.total_length !== total)
			bad.push(`total_length changed to ${sc.total_length}`);
		whole += sc.content;
		if (sc.next_offset === null)
			break;
		if (sc.next_offset !== offset + cpLength(sc.content))
			bad.push(`next_offset ${sc.next_offset} after ` +
			    `${cpLength(sc.content)} characters from ${offset}`);
		if (!text(r).includes(`offset ${sc.next_offset}`))
			bad.push(`text does not tell offset ${sc.next_offset}`);
		if (pages > 100) {
			bad.push('more than 100 pages');
			break;
		}
		offset = sc.next_offset;
	}
	const missing = [];
	for (let i = 1; i <= LONG_PARAS; i++)
		if (!whole.includes(`(marker-${i}-end)`))
			missing.push(i);
	check('paging', bad.length === 0 && pages >= 3 &&
	    cpLength(whole) === total && missing.length === 0 &&
	    whole.includes('crème brûlée 🚢'),
	    { pages, total, length: cpLength(whole), bad,
	      missing: missing.slice(0, 10) });
}

// Cancel a fetch of /stall (which answers nothing): the client sends
// notifications/cancelled; the server drops the fetch (the fixture sees
// its connection close), answers the next call at once (urlserve runs
// with -j 1: only a released worker can answer it) and never answers
// the cancelled request.
async function cancel(s, fx) {
	const ac = new AbortController();
	const n0 = fx.stalls.length;
	const p = call(s, 'fetch_url', { url: fx.base + '/stall?c=' + n0,
	    use_cache: false }, { signal: ac.signal });
	p.catch(() => {});
	for (let i = 0; i < 200 && fx.stalls.length === n0; i++)
		await sleep(25);
	const stall = fx.stalls[n0];
	const req = s.log.out.filter((m) => m.method === 'tools/call').pop();
	ac.abort('test');
	const t0 = Date.now();
	const r = await call(s, 'detect_urls', { text: 'x http://a.test/ y' },
	    { timeout: 5000 });
	const next = Date.now() - t0;
	for (let i = 0; i < 80 && stall && !stall.closed; i++)
		await sleep(25);
	await sleep(300);
	const sent = s.log.out.find((m) => m.method ===
	    'notifications/cancelled' && req &&
	    m.params.requestId === req.id);
	const answered = s.log.in.filter((m) => req && m.id === req.id &&
	    !m.method);
	check('cancel', stall && sent && !r.isError && next < 2000 &&
	    stall.closed && stall.closed - t0 < 3000 && answered.length === 0,
	    { reached: !!stall, cancelSent: !!sent, nextCallMs: next,
	      fetchClosedAfterMs: stall && stall.closed ?
	      stall.closed - t0 : null, answeredCancelled: answered });
}

// Arguments that do not match a tool's inputSchema are the tool's error
// (an isError result naming the argument, as the protocol's 2025-11-25
// revision has it, so that a model can correct the call); an unknown
// tool, or a call whose name is not a string, is the protocol error
// -32602 (the SDK throws it as McpError).
async function badParams(s) {
	const outcome = async (name, args) => {
		try {
			const r = await s.client.request({ method: 'tools/call',
			    params: { name, arguments: args } },
			    types.CallToolResultSchema, T);
			return { isError: r.isError, text: text(r) };
		} catch (e) {
			return { code: e.code, message: e.message };
		}
	};
	const a = await outcome('fetch_url', { url: 5 });
	const b = await outcome('fetch_url', {});
	const c = await outcome('no_such_tool', {});
	const d = await outcome(5, {});
	check('bad arguments: isError; unknown tool: -32602',
	    a.isError === true && /url/.test(a.text) &&
	    b.isError === true && /url/.test(b.text) &&
	    c.code === -32602 && /no_such_tool/.test(c.message) &&
	    d.code === -32602,
	    { wrongType: a, missing: b, unknownTool: c, nameNotString: d });
}

async function refused(s, fx) {
	const u = 'http://127.0.0.2:' + fx.port + '/article.html';
	const r = await call(s, 'fetch_url', { url: u });
	check('refused address', r.isError === true &&
	    /127\.0\.0\.2/.test(text(r)) && /refused|private/.test(text(r)) &&
	    r.structuredContent && r.structuredContent.url === u &&
	    typeof r.structuredContent.error === 'string',
	    { text: text(r), structured: r.structuredContent });
}

// detect_and_fetch with a progress token: one notifications/progress per
// URL, increasing, all on the wire before the response.  The wire is what
// is checked, not the SDK's onprogress: the SDK (1.32.2) hands a
// notification to its handler a microtask later but settles a response at
// once, so when one read of stdio holds both, the notifications that came
// first reach onprogress after the request is done and are dropped (seen
// here: 0 to 2 of the 3, by the timing).
async function progress(s, fx) {
	const seen = [];
	const t = `${fx.base}/article-p1.html ${fx.base}/article-p2.html ` +
	    `${fx.base}/article-p3.html`;
	const from = s.log.in.length;
	const r = await s.client.callTool({ name: 'detect_and_fetch',
	    arguments: { text: t } }, undefined,
	    { ...T, onprogress: (p) => seen.push(p) });
	const req = s.log.out.filter((m) => m.method === 'tools/call').pop();
	const tok = req.params._meta && req.params._meta.progressToken;
	const wire = [];
	let answered = false, late = 0;
	for (const m of s.log.in.slice(from)) {
		if (m.method === 'notifications/progress' &&
		    m.params.progressToken === tok) {
			wire.push(m.params);
			late += answered;
		} else if (!m.method && m.id === req.id) {
			answered = true;
		}
	}
	check('progress', !r.isError && tok !== undefined &&
	    wire.length === 3 && late === 0 &&
	    wire.every((p, i) => p.total === 3 && p.progress === i + 1),
	    { wire, afterResponse: late, deliveredBySdk: seen.length });
}

// The SDK validated every structuredContent it got against the tool's
// outputSchema, and the schema does constrain: fetch_url's validator
// refuses a result whose offset is a string.
function validated(s, calls) {
	const n = s.validator.calls;
	const failures = [...s.validator.failures];
	const v = s.client.getToolOutputValidator('fetch_url');
	const ok = v && v({ url: 'http://a.test/', offset: 'x' }).valid;
	check('outputSchema validated by the SDK', v && !ok && n >= calls &&
	    failures.length === 0,
	    { validations: n, failures,
	      negativeRejected: v ? !ok : null });
}

async function run(s, fx) {
	await attempt('lifecycle', () => lifecycle(s));
	const tools = await attempt('tools/list', () => listTools(s)) || [];
	await attempt('tools', () => eachTool(s, fx, tools));
	await attempt('paging', () => paging(s, fx));
	await attempt('cancel', () => cancel(s, fx));
	await attempt('refused address', () => refused(s, fx));
	await attempt('bad arguments: isError; unknown tool: -32602',
	    () => badParams(s));
	await attempt('progress', () => progress(s, fx));
	// Every successful call above with a structuredContent: at least
	// the ones of eachTool (15) and paging (3).
	validated(s, 18);
}

async function main() {
	const fx = await startFixture();
	const env = { TOOLACK_URL: 'http://127.0.0.1:9', TOOLACK_TOKEN: 'x' };
	const args = ['-j', '1', '-t', '20'];

	setLabel({ transport: 'stdio' });
	await attempt('connect', async () => {
		const s = await connectStdio(args, { env });
		await run(s, fx);
		await s.close();
	});

	setLabel({ transport: 'http' });
	let srv;
	await attempt('connect', async () => {
		srv = await startHttp(args, dir, env);
		// Without the token: 401, which the SDK reports as an error.
		const raw = await fetch(srv.url, { method: 'POST',
		    headers: { 'Content-Type': 'application/json',
		    Accept: 'application/json, text/event-stream' },
		    body: JSON.stringify({ jsonrpc: '2.0', id: 1,
		    method: 'ping' }) });
		check('no token: 401', raw.status === 401,
		    { status: raw.status });
		const s = await connectHttp(srv.url, srv.token);
		await run(s, fx);
		await s.transport.terminateSession().catch(() => {});
		await s.close();
	});
	if (srv)
		srv.proc.kill('SIGTERM');
	fx.close();
}

main().then(() => {
	const u = process.resourceUsage();
	const secs = (u.userCPUTime + u.systemCPUTime) / 1e6;
	process.stderr.write(`sdk.mjs: node ${secs.toFixed(2)} s of CPU\n`);
	process.exit(0);
}, (e) => {
	check('driver', false, { error: String(e && e.stack || e) });
	process.exit(1);
});
