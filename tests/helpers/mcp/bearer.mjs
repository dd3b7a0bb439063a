// SPDX-License-Identifier: MIT
// Preloaded (node --import) into the conformance suite's CLI: it adds
// "Authorization: Bearer $URLSERVE_TOKEN" to every request it makes to
// $URLSERVE_URL's origin.  urlserve -l always wants its token, and the
// suite (0.1.13) has no option to send one: it reaches the server through
// the SDK's transport and plain fetch (both the global fetch) and, for the
// DNS-rebinding scenario, undici's request (patched in its CommonJS
// module before the suite's import of it reads the export).  Only the
// header is added: the Host and Origin the suite sets are left as they
// are, so what it tests is what urlserve sees.
import { createRequire } from 'node:module';

const url = new URL(process.env.URLSERVE_URL);
const auth = 'Bearer ' + process.env.URLSERVE_TOKEN;

const ours = (u) => {
	try {
		return new URL(String(u instanceof Request ? u.url : u)).origin ===
		    url.origin;
	} catch {
		return false;
	}
};

const origFetch = globalThis.fetch;
globalThis.fetch = (input, init = {}) => {
	if (!ours(input))
		return origFetch(input, init);
	const h = new Headers(init.headers ||
	    (input instanceof Request ? input.headers : undefined));
	h.set('Authorization', auth);
	return origFetch(input, { ...init, headers: h });
};

const req = createRequire(process.env.URLSERVE_CONFORMANCE);
const undici = req('undici');
const origRequest = undici.request;
undici.request = (u, opts = {}) => {
	if (!ours(u))
		return origRequest(u, opts);
	return origRequest(u, { ...opts,
	    headers: { ...(opts.headers || {}), Authorization: auth } });
};
