# SPDX-License-Identifier: MIT
# The end-to-end suites' world: every loopback server the pipeline talks
# to, started per test, with the environment pointing each tool at them.
#
#   fetch_server.py   web pages, docs, the GitHub API and raw hosts ($B)
#   repo_server.py    repository archives (acme/tiny, made by e2e_repo)
#   llm_server.py     the OpenAI-compatible stand-in (requests in $T/req)
#   toolack serve     the ack server, with toolack exec as the frontend;
#                     its open_url handler appends each URL to $T/opened

# e2e_repo DIR: a tiny repository served as the archive acme/tiny (HEAD)
# under DIR/srv.
e2e_repo() {
	local d=$1
	mkdir -p "$d/src/tiny" "$d/srv/archives/acme/tiny"
	(
		cd "$d/src" || exit 1
		git init -q -b main .
		printf '# tiny\n\nTiny turns widgets into gadgets.\n' >README.md
		cat >tiny/core.py <<'P'
def make_gadget(widget):
    """Turn one widget into a gadget."""
    return [widget]


def make_gadgets(widgets):
    return [make_gadget(w) for w in widgets]
P
		git add -A
		git -c user.email=t@example.org -c user.name=t commit -q -m tiny
		git archive --format=tar.gz --prefix=acme-tiny-0123abc/ main \
		    >"$d/srv/archives/acme/tiny/HEAD.tar.gz"
	)
}

# e2e_start: start every server; sets B, and the environment of every tool.
# Loopback is allowed for 127.0.0.1 only (URLKIT_ALLOW_PRIVATE as a list),
# so a private address in a message is still refused.
e2e_start() {
	start_server fs python3 "$TOP/tests/helpers/fetch_server.py" || return 1
	B="http://127.0.0.1:$fs_PORT"
	mkdir -p "$T/srv"
	ln -s "$BATS_FILE_TMPDIR/srv/archives" "$T/srv/archives"
	: >"$T/repo.log"
	start_server repo python3 "$TOP/tests/helpers/repo_server.py" \
	    "$T/srv" "$T/repo.log" || return 1
	: >"$T/req"
	start_server llm python3 "$TOP/tests/helpers/llm_server.py" normal \
	    "$T/req" || return 1
	export B
	export URLKIT_ALLOW_PRIVATE=127.0.0.1
	export URLKIT_GITHUB_URL="$B/gh" URLKIT_GITHUB_RAW_URL="$B/raw"
	export URLKIT_GITHUB_API_URL="$B/api"
	export URLKIT_GITHUB_ARCHIVE_URL="http://127.0.0.1:$repo_PORT"
	export URLKIT_LLM_URL="http://127.0.0.1:$llm_PORT/v1"
	export URLKIT_LLM_MODEL=stand-in
	export TMPDIR="$T/tmp"
	mkdir -p "$TMPDIR"
	unset URLKIT_GITHUB_TOKEN GITHUB_TOKEN URLKIT_CACHE_TTL URLKIT_LLM_KEY \
	    OPENAI_API_KEY TOOLACK_TOKEN
	unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY ALL_PROXY all_proxy
	export TOOLACK_TOKEN_FILE="$T/token"
	start_server ta toolack serve -l 127.0.0.1:0 -b 0.2 || return 1
	export TOOLACK_URL="$ta_PORT"
	toolack exec --idle 2 \
	    -H "open_url=$TOP/tests/helpers/toolack_argv.sh $T/opened" \
	    >"$T/exec.out" 2>"$T/exec.log" &
	echo $! >"$T/exec.pid"
}

# fs_count PATH: requests the fetch server has had for PATH.
fs_count() {
	curl -s "$B/_count$1"
}

# llm_count: requests the LLM stand-in has had.
llm_count() {
	wc -l <"$T/req"
}

# archive_count: archive downloads from the repository server.
archive_count() {
	grep -c 'tar.gz' "$T/repo.log"
}
