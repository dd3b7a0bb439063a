// SPDX-License-Identifier: MIT
// The reference counts for t_tokens: the npm package tiktoken's own
// encoder (its Rust core built to WebAssembly), as scripts/tokenizers
// unpacked it.  node tiktoken_ref.cjs DIR ENCODING FILE...: one line per
// file, the count of encode_ordinary over the file's bytes as UTF-8.
"use strict";
const fs = require("fs");
const path = require("path");
const [rel, name, ...files] = process.argv.slice(2);
const dir = path.resolve(rel);
const { Tiktoken } = require(dir + "/lite/tiktoken.cjs");
const e = JSON.parse(fs.readFileSync(dir + "/encoders/" + name + ".json"));
const t = new Tiktoken(e.bpe_ranks, e.special_tokens, e.pat_str);
for (const f of files)
	console.log(String(t.encode_ordinary(fs.readFileSync(f, "utf8")).length));
t.free();
