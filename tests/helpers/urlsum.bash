# SPDX-License-Identifier: MIT
# Shared by the urlsum suites: the OpenAI-compatible stand-in.

# llm MODE: start the stand-in; requests are logged to $T/req.
llm() {
	start_server llm python3 "$TOP/tests/helpers/llm_server.py" "$1" "$T/req"
	export URLKIT_LLM_URL="http://127.0.0.1:$llm_PORT/v1"
}

# requests: how many requests the stand-in has seen.
requests() {
	[ -e "$T/req" ] || { echo 0; return; }
	wc -l <"$T/req"
}
