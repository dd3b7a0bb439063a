# SPDX-License-Identifier: MIT
# fish completion for pwfetch(1)
set -l cmds find open fetch
complete -c pwfetch -f
complete -c pwfetch -n "not __fish_seen_subcommand_from $cmds" -a find -d 'reload a page already open in a running browser'
complete -c pwfetch -n "not __fish_seen_subcommand_from $cmds" -a open -d 'a new browser context and page'
complete -c pwfetch -n "not __fish_seen_subcommand_from $cmds" -a fetch -d 'a new page in the default context'
complete -c pwfetch -s a -l attach -d 'attach to the browser at $URLKIT_DEVTOOLS_URL'
complete -c pwfetch -s c -l connect -x -a 'http://127.0.0.1:9222' -d 'attach to the browser at a DevTools address'
complete -c pwfetch -s e -l eval -x -d 'evaluate a JavaScript expression in each page'
complete -c pwfetch -s H -l html -d 'put the rendered HTML in the record'
complete -c pwfetch -s q -l quiet -d 'show no progress on a terminal'
complete -c pwfetch -s j -l jobs -x -d 'pages at once'
complete -c pwfetch -s P -l allow-private -d 'allow private and loopback addresses'
complete -c pwfetch -s s -l screenshot -r -F -d 'save PNG screenshots'
complete -c pwfetch -s T -l total-timeout -x -d 'time for the whole run'
complete -c pwfetch -s t -l timeout -x -d 'time for each page'
complete -c pwfetch -s u -l user-agent -x -d 'User-Agent to send'
complete -c pwfetch -s v -l viewport -x -d 'viewport size, WIDTHxHEIGHT'
complete -c pwfetch -s w -l wait -x -a 'load domcontentloaded networkidle selector:' -d 'when a page is ready'
complete -c pwfetch -s h -l help -d 'print the synopsis'
complete -c pwfetch -s V -l version -d 'print the version'
