// SPDX-License-Identifier: MIT
// node bench.mjs N PEER_DIR: scripts/bench mcp's client.  One SDK Client
// per server, over stdio, the same code for each: N tools/call one after
// another, each timed from the call to its result (median, p99), then N
// calls with 8 in flight (calls per second), and the server's CPU time
// per call (from /proc).  tools/list is not called, so that the client
// validates no structuredContent (the peers declare no outputSchema): the
// figures are the server's and the protocol's.  Servers:
//   urlserve fetch_url on a cached page (the fixture page fetched once
//   first), urlserve detect_urls (no cache, no network: the protocol's
//   floor in urlserve), and the peer, @modelcontextprotocol/server-everything
//   (PEER_DIR), with its echo tool (the SDK's own server doing nothing).
// Prints markdown table rows.
import fs from 'node:fs';
import path from 'node:path';
import {
	Client, StdioClientTransport, serverEnv, startFixture, UK_BIN,
} from './lib.mjs';

const n = +process.argv[2] || 10000;
const peerDir = process.argv[3];
const CONC = 8;

function cpu(pid) {
	// utime + stime, in clock ticks (100 a second on Linux).
	const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
		.replace(/^.*\) /, '').split(' ');
	return (+f[11] + +f[12]) / 100;
}

async function connect(command, args) {
	const client = new Client({ name: 'urlkit-bench', version: '1' },
	    { capabilities: {} });
	const transport = new StdioClientTransport({ command, args,
	    env: serverEnv(), stderr: 'ignore' });
	await client.connect(transport);
	return { client, transport };
}

async function measure(label, command, args, tool, params, check) {
	const { client, transport } = await connect(command, args);
	const call = () => client.callTool({ name: tool, arguments: params },
	    undefined, { timeout: 30000 });
	const first = await call();
	if (!check(first))
		throw new Error(`${label}: unexpected first result: ` +
		    JSON.stringify(first).slice(0, 300));
	for (let i = 0; i < 200; i++)
		await call();
	const pid = transport.pid;
	let bad = 0;
	const c0 = cpu(pid);
	const ts = new Float64Array(n);
	for (let i = 0; i < n; i++) {
		const t0 = process.hrtime.bigint();
		const r = await call();
		ts[i] = Number(process.hrtime.bigint() - t0) / 1e6;
		bad += !check(r);
	}
	const c1 = cpu(pid);
	ts.sort();
	let next = 0;
	const t0 = process.hrtime.bigint();
	const worker = async () => {
		while (next < n) {
			next++;
			bad += !check(await call());
		}
	};
	await Promise.all(Array.from({ length: CONC }, worker));
	const secs = Number(process.hrtime.bigint() - t0) / 1e9;
	await client.close();
	console.log(`| ${label}, ${n} calls | ${ts[n >> 1].toFixed(3)} ms | ` +
	    `${ts[Math.floor(n * 0.99)].toFixed(3)} ms | ` +
	    `${(n / secs).toFixed(0)} calls/s | ` +
	    `${((c1 - c0) / n * 1e6).toFixed(0)} µs | ${bad} |`);
}

async function main() {
	const fx = await startFixture();
	const url = fx.base + '/article.html';
	const us = path.join(UK_BIN, 'urlserve');
	console.log('| server, tool | median round trip | p99 | ' +
	    `throughput, ${CONC} in flight | server CPU per call | failed |`);
	console.log('|---|---|---|---|---|---|');
	await measure('urlserve fetch_url, cache hit', us, [], 'fetch_url',
	    { url }, (r) => !r.isError &&
	    /harbour was quiet/.test(r.structuredContent.content));
	const hits = fx.counts.get('/article.html');
	await measure('urlserve detect_urls (protocol floor)', us, [],
	    'detect_urls', { text: 'see ' + url }, (r) => !r.isError);
	if (peerDir) {
		const ev = path.join(peerDir, 'node_modules/@modelcontextprotocol/' +
		    'server-everything/dist/index.js');
		await measure('server-everything 2026.8.31 echo (node)',
		    process.execPath, [ev, 'stdio'], 'echo', { message: 'x' },
		    (r) => !r.isError && /x/.test(JSON.stringify(r.content)));
	}
	console.log(`\nfixture requests for the cached page: ${hits} ` +
	    '(1: every other call was a cache hit)');
	fx.close();
}

main().then(() => process.exit(0), (e) => {
	console.error('bench.mjs: ' + (e && e.stack || e));
	process.exit(1);
});
