# SPDX-License-Identifier: MIT
# mkdir and rm as bash builtins, where Debian's bash-builtins is installed
# (scripts/bootstrap installs it); without it, the programs in /usr/bin as
# before.  Every test runs five of them: bats' own two mkdir before the
# test and its rm after it, common_setup's mkdir and common_teardown's
# rm, each a process start of some 10 ms of CPU on the loaded machine.
# tests/run puts this file in BASH_ENV for bats, so that bash reads it at
# the start of each of bats' own processes; common.bash reads it too (for
# bats run by hand) and stops passing BASH_ENV on to what a test runs.
for _uk_b in mkdir rm; do
	[ -e "/usr/lib/bash/$_uk_b" ] &&
	    enable -f "/usr/lib/bash/$_uk_b" "$_uk_b" 2>/dev/null
done
unset _uk_b
