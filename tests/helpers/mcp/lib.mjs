// SPDX-License-Identifier: MIT
// The pieces every MCP driver here shares: the SDK loaded from the tree
// scripts/mcp-deps installs (.mcp/, outside node's own search path, hence
// createRequire), urlserve started over stdio or HTTP, a loopback fixture
// server, and one JSON line per check on stdout.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOP = path.resolve(path.dirname(fileURLToPath(import.meta.url)),
    '../../..');
export const MCP_DIR = process.env.URLKIT_MCP_DIR || path.join(TOP, '.mcp');
export const UK_BIN = process.env.UK_BIN || path.join(TOP, 'build/bin');

const req = createRequire(path.join(MCP_DIR, 'package.json'));
export const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
export const { StdioClientTransport } =
    req('@modelcontextprotocol/sdk/client/stdio.js');
export const { StreamableHTTPClientTransport } =
    req('@modelcontextprotocol/sdk/client/streamableHttp.js');
export const { AjvJsonSchemaValidator } =
    req('@modelcontextprotocol/sdk/validation/ajv');
export const types = req('@modelcontextprotocol/sdk/types.js');
export const Ajv = req('ajv').default;
export const addFormats = req('ajv-formats').default;

let label = {};
// setLabel(FIELDS): fields added to every check printed from here on
// (the transport, say).
export function setLabel(l) {
	label = l;
}

// check(NAME, OK, DETAILS): one line {"check", "ok", ...} on stdout.
export function check(name, ok, details = {}) {
	process.stdout.write(JSON.stringify({ ...label, check: name,
	    ok: !!ok, ...details }) + '\n');
	return !!ok;
}

// attempt(NAME, FN): run FN; a throw is a failed check carrying the error.
export async function attempt(name, fn) {
	try {
		return await fn();
	} catch (e) {
		check(name, false, { error: String(e && e.stack || e) });
		return undefined;
	}
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A validator that counts what it validates, so that a test can see the
// SDK did validate every structuredContent against the tool's
// outputSchema (Client.callTool calls it for tools listed with one).
export class CountingValidator {
	constructor() {
		this.inner = new AjvJsonSchemaValidator();
		this.calls = 0;
		this.failures = [];
	}

	getValidator(schema) {
		const v = this.inner.getValidator(schema);
		return (data) => {
			this.calls++;
			const r = v(data);
			if (!r.valid)
				this.failures.push(r.errorMessage);
			return r;
		};
	}
}

// Wrap a connected transport so that every message in and out is kept:
// the cancellation check needs to see that no response came for the
// cancelled request's id.
export function recordMessages(transport) {
	const log = { in: [], out: [] };
	const onmsg = transport.onmessage;
	transport.onmessage = (m, extra) => {
		log.in.push(m);
		onmsg(m, extra);
	};
	const send = transport.send.bind(transport);
	transport.send = (m, opts) => {
		log.out.push(m);
		return send(m, opts);
	};
	return log;
}

export function serverEnv(extra = {}) {
	return { ...process.env, URLKIT_ALLOW_PRIVATE: '127.0.0.1', ...extra };
}

// connectStdio(ARGS, OPTS): a Client on `urlserve ARGS` over stdio.
export async function connectStdio(args = [], opts = {}) {
	const validator = new CountingValidator();
	const client = new Client({ name: 'urlkit-tests', version: '1' },
	    { capabilities: {}, jsonSchemaValidator: validator });
	const transport = new StdioClientTransport({
		command: opts.command || path.join(UK_BIN, 'urlserve'),
		args, env: serverEnv(opts.env), stderr: 'inherit' });
	await client.connect(transport);
	const log = recordMessages(transport);
	return { client, transport, validator, log,
	    close: () => client.close() };
}

// startHttp(ARGS, DIR): `urlserve -l 127.0.0.1:0 --token-file DIR/token
// ARGS`, resolved with {url, token, proc} once it says where it listens.
export function startHttp(args, dir, env = {}) {
	const tokenFile = path.join(dir, 'token');
	// urlserve refuses a weak token file: 32 random hex digits.
	const token = randomBytes(16).toString('hex');
	fs.writeFileSync(tokenFile, token + '\n', { mode: 0o600 });
	const proc = spawn(path.join(UK_BIN, 'urlserve'),
	    ['-l', '127.0.0.1:0', '--token-file', tokenFile, ...args],
	    { env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
	return new Promise((resolve, reject) => {
		let err = '';
		const t = setTimeout(() => reject(new Error(
		    'urlserve -l said nothing in 20 s: ' + err)), 20000);
		proc.stdout.on('data', (d) => process.stderr.write(d));
		proc.stderr.on('data', (d) => {
			process.stderr.write(d);
			err += d;
			const m = /listening on (http:\/\/\S+)/.exec(err);
			if (m) {
				clearTimeout(t);
				resolve({ url: m[1], token, proc });
			}
		});
		proc.on('exit', (c) => reject(new Error(
		    'urlserve -l exited ' + c + ': ' + err)));
	});
}

export async function connectHttp(url, token) {
	const validator = new CountingValidator();
	const client = new Client({ name: 'urlkit-tests', version: '1' },
	    { capabilities: {}, jsonSchemaValidator: validator });
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		requestInit: { headers: { Authorization: 'Bearer ' + token } } });
	await client.connect(transport);
	const log = recordMessages(transport);
	return { client, transport, validator, log,
	    close: () => client.close() };
}

// The fixture pages.  The long page is made of numbered paragraphs with
// characters outside ASCII (the paging counts code points), so that a test
// can put the pages back together and see that nothing was lost.
export const ARTICLE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>The Quiet Harbour</title>
<meta name="description" content="A short story about boats.">
</head><body><nav><a href="/">Home</a></nav><article>
<h1>The Quiet Harbour</h1>
<p>The harbour was quiet that morning, and the fishing boats rocked gently
against the old stone pier while gulls circled overhead looking for
scraps. Nobody in the village remembered a calmer day.</p>
<p>By noon the wind had turned, and the harbour master walked the length of
the pier twice, checking every rope and every knot, because he had seen
calm mornings turn into wild afternoons more times than he could count.</p>
</article><footer>Copyright 2024 Example Footer</footer></body></html>
`;

export const LONG_PARAS = 240;
export function longPage() {
	let body = '';
	for (let i = 1; i <= LONG_PARAS; i++)
		body += `<p>Paragraph ${i} of the long road: the café by the ` +
		    `harbour served crème brûlée 🚢 to sailors who came back ` +
		    `from sea with stories of storms, islands and whales ` +
		    `(marker-${i}-end).</p>\n`;
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>The Long Road</title></head><body><article><h1>The Long Road</h1>
${body}</article></body></html>
`;
}

// startFixture(): a loopback HTTP server with /article.html (and any
// /article*.html), /long.html, /stall (answers nothing: its socket's close
// is recorded), /status/N, GitHub's raw host under /raw (a file on branch
// master only) and an OpenAI-compatible POST /v1/chat/completions that
// answers "STAND-IN SUMMARY ..."; every request is counted by path (and
// query).
export function startFixture() {
	const counts = new Map();
	const stalls = [];
	const long = longPage();
	const srv = http.createServer((rq, rs) => {
		const p = rq.url.split('?')[0];
		counts.set(rq.url, (counts.get(rq.url) || 0) + 1);
		const send = (code, body, type = 'text/html; charset=utf-8') => {
			rs.writeHead(code, { 'Content-Type': type,
			    'Content-Length': Buffer.byteLength(body) });
			rs.end(body);
		};
		if (/^\/article[\w-]*\.html$/.test(p) || p.startsWith('/docs/'))
			return send(200, ARTICLE.replace('The Quiet Harbour',
			    'The Quiet Harbour ' + p));
		if (p === '/long.html')
			return send(200, long);
		if (p === '/raw/octo/demo/master/src/hello.py')
			return send(200, "def hello():\n    return 'hi'\n",
			    'text/plain; charset=utf-8');
		if (p === '/v1/chat/completions' && rq.method === 'POST') {
			let body = '';
			rq.on('data', (d) => { body += d; });
			rq.on('end', () => send(200, JSON.stringify({
				id: 'x', object: 'chat.completion', model: 'stand-in',
				choices: [{ index: 0, finish_reason: 'stop',
				    message: { role: 'assistant', content:
				    'STAND-IN SUMMARY of ' + body.length +
				    ' bytes of request.' } }],
				usage: { prompt_tokens: 1, completion_tokens: 1,
				    total_tokens: 2 } }), 'application/json'));
			return;
		}
		if (p === '/stall') {
			const s = { at: Date.now(), closed: null };
			stalls.push(s);
			rq.socket.on('close', () => { s.closed = Date.now(); });
			return;
		}
		const m = /^\/status\/(\d+)$/.exec(p);
		if (m)
			return send(+m[1], '<html><body>status</body></html>');
		send(404, '<html><body>not found</body></html>');
	});
	return new Promise((resolve) => {
		srv.listen(0, '127.0.0.1', () => {
			const base = 'http://127.0.0.1:' + srv.address().port;
			resolve({ base, port: srv.address().port, counts, stalls,
			    close: () => { srv.closeAllConnections(); srv.close(); } });
		});
	});
}

// Code points of a string (the unit fetch_url's offset counts).
export const cpLength = (s) => [...s].length;
