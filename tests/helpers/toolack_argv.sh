#!/bin/sh
# SPDX-License-Identifier: MIT
# A toolack exec handler for the tests: append "ARGC:ARGS" to the file $1.
f=$1
shift
printf '%s:%s\n' "$#" "$*" >>"$f"
