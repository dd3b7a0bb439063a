# SPDX-License-Identifier: MIT
# Fixtures for the repository suites: a real git repository in several
# languages with cross-file calls, served as archives and over git.

# make_repo DIR: the test repository (branch main, and dev with more READMEs).
make_repo() {
	local d=$1
	mkdir -p "$d" && cd "$d" || return 1
	git init -q -b main .
	git config user.email t@example.org
	git config user.name test
	cat >README.rst <<'R'
Tool
====

Tool turns widgets into gadgets, quickly and safely.
R
	mkdir -p core app web lib src tools .hidden node_modules/pkg
	cat >core/util.py <<'P'
def helper_function(x):
    """The helper everybody calls."""
    return x * 2


def rarely_used(y):
    return y
P
	cat >app/main.py <<'P'
from core.util import helper_function


def main_entry():
    return helper_function(1) + helper_function(2)
P
	cat >app/jobs.py <<'P'
from core.util import helper_function


def run_jobs():
    return [helper_function(i) for i in range(3)]
P
	cat >web/format.js <<'P'
// Formats a date for display.
function formatDate(d) { return d.toISOString() }
module.exports = { formatDate }
P
	cat >web/page.js <<'P'
const { formatDate } = require('./format')
function renderPage(p) { return helper_function(formatDate(p.date)) }
P
	cat >lib/engine.go <<'P'
package lib

// StartEngine starts it.
func StartEngine() int { return helper_function(3) }
P
	cat >src/lib.rs <<'P'
pub fn rust_entry() -> i32 { helper_function(4) }
P
	cat >src/main.c <<'P'
#include "util.h"

int
c_entry(void)
{
	return helper_function(5);
}
P
	cat >src/Main.java <<'P'
class Main { int javaEntry() { return helperFunction(6); } }
P
	cat >tools/task.rb <<'P'
# Runs the task.
class Task
  def perform
    helper_function(7)
  end
end
P
	cat >.hidden/secret.py <<'P'
def hidden_secret_function():
    return helper_function(0)
P
	cat >node_modules/pkg/index.js <<'P'
function nodeModulesFunction() { return helper_function(0) }
P
	cat >web/app.min.js <<'P'
function minifiedThing(){return 1}
P
	ln -s /etc/hostname evil_link.py
	ln -s ../../../../etc app/escape.py
	python3 -c '
import sys
with open("big_file.py", "w") as f:
    for i in range(40000):
        f.write("def huge_generated_%d(): return helper_function(%d)\n" % (i, i))
'
	git add -A && git commit -q -m initial
	git checkout -q -b dev
	printf 'Dev readme in markdown.\n' >README.md
	printf 'Dev readme in text.\n' >README.txt
	printf 'Dev plain readme.\n' >README
	git add -A && git commit -q -m dev
	git checkout -q main
	cd - >/dev/null || return 1
}

# serve_repo SRC SRV: archives of SRC's branches as acme/tool and a bare
# clone for git over HTTP as git/tool.git, under the server root SRV.
serve_repo() {
	local src=$1 srv=$2
	mkdir -p "$srv/archives/acme/tool" "$srv/git"
	git -C "$src" archive --format=tar.gz --prefix=acme-tool-0123abc/ \
	    main >"$srv/archives/acme/tool/HEAD.tar.gz"
	git -C "$src" archive --format=tar.gz --prefix=acme-tool-0123abc/ \
	    dev >"$srv/archives/acme/tool/dev.tar.gz"
	git clone -q --bare "$src" "$srv/git/tool.git"
}

# repo_serve_file (in setup_file, after serve_repo into
# $BATS_FILE_TMPDIR/srv): one server for every test of the file, which
# repo_setup then uses instead of starting one per test (a python3 start
# costs 0.1-0.3 s of CPU); repo_unserve_file (teardown_file) stops it.
# Only for a suite whose tests neither read $T/requests.log (the server
# logs to $BATS_FILE_TMPDIR/requests.log) nor change $T/srv.
repo_serve_file() {
	local T=$BATS_FILE_TMPDIR
	: >"$T/requests.log"
	start_server filesrv python3 "$TOP/tests/helpers/repo_server.py" \
	    "$T/srv" "$T/requests.log"
}

repo_unserve_file() {
	local pid=
	read -r pid <"$BATS_FILE_TMPDIR/filesrv.pid" || [ -n "$pid" ] || return 0
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null || :
}

# repo_setup: per-test set-up shared by the repository suites: a private
# $T (common_setup), the file's fixture repository as $T/src and $SRC, its
# archives and git served by a fresh loopback server (requests logged to
# $T/requests.log; the file's one server after repo_serve_file) that
# URLKIT_GITHUB_ARCHIVE_URL points at, loopback
# allowed, TMPDIR private, REPO the t_repo driver and TOKENS the t_tokens
# counter (TOKENS NAME FILE prints FILE's count in tokenizer NAME).
repo_setup() {
	common_setup
	SRC=$BATS_FILE_TMPDIR/src
	ln -s "$SRC" "$T/src"
	mkdir -p "$T/srv" "$T/tmp"
	ln -s "$BATS_FILE_TMPDIR/srv/archives" "$T/srv/archives"
	ln -s "$BATS_FILE_TMPDIR/srv/git" "$T/srv/git"
	: >"$T/requests.log"
	if [ -n "${filesrv_PORT:-}" ]; then
		srv_PORT=$filesrv_PORT
	else
		start_server srv python3 "$TOP/tests/helpers/repo_server.py" \
		    "$T/srv" "$T/requests.log"
	fi
	export URLKIT_ALLOW_PRIVATE=1
	export URLKIT_GITHUB_ARCHIVE_URL="http://127.0.0.1:$srv_PORT"
	export TMPDIR="$T/tmp"
	REPO=${UK_REPO:-$UK_UNIT/t_repo}
	[ -x "$REPO" ] || REPO=$TOP/build/unit/t_repo
	TOKENS=${UK_UNIT:-$TOP/build/unit}/t_tokens
	[ -x "$TOKENS" ] || TOKENS=$TOP/build/unit/t_tokens
}

# progress_ok FINAL_RECORD: the -P lines on $stderr count up, fetching
# before indexing, and end with every kept file indexed.
progress_ok() {
	awk -v want="$(jq -r .github_info.files_indexed <<<"$1")" '
	$1 != "progress" { next }
	{ n++ }
	$2 == "indexing" && last != "indexing" { ix++ }
	$2 == "fetching" && ix { bad = "fetching after indexing" }
	{ last = $2 }
	n > 1 { for (i = 3; i <= 7; i++) if ($i < prev[i]) bad = "column " i " went down" }
	{ for (i = 3; i <= 7; i++) prev[i] = $i; if ($3 > 0) got = 1 }
	END {
		if (!n) bad = "no progress"
		if (ix != 1) bad = "indexing reported " ix " times"
		if (prev[5] != want || prev[6] != want || prev[7] != want)
			bad = "last line " $0 ", " want " indexed"
		if (bad) { print bad; exit 1 }
		print (got ? "received" : "none received")
	}' <<<"$stderr"
}
