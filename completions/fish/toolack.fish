# SPDX-License-Identifier: MIT
# fish completion for toolack(1)
set -l cmds serve call ack exec wait
complete -c toolack -f
complete -c toolack -s h -l help -d 'print the synopsis'
complete -c toolack -n "not __fish_seen_subcommand_from $cmds" -a serve -d 'run the registry, ack endpoint and web frontend'
complete -c toolack -n "not __fish_seen_subcommand_from $cmds" -a call -d 'dispatch tool calls and wait for acks'
complete -c toolack -n "not __fish_seen_subcommand_from $cmds" -a ack -d 'post an ack'
complete -c toolack -n "not __fish_seen_subcommand_from $cmds" -a exec -d 'run handler commands for calls'
complete -c toolack -n "not __fish_seen_subcommand_from $cmds" -a wait -d 'wait for a dispatched call'
complete -c toolack -n "__fish_seen_subcommand_from serve" -s l -l listen -x -d 'address to listen on'
complete -c toolack -n "__fish_seen_subcommand_from serve" -s f -l token-file -r -F -d 'token file'
complete -c toolack -n "__fish_seen_subcommand_from serve" -s b -l heartbeat -x -d 'heartbeat seconds'
complete -c toolack -n "__fish_seen_subcommand_from serve call exec wait" -s T -l timeout -x -d 'timeout seconds'
complete -c toolack -n "__fish_seen_subcommand_from call exec" -s j -l jobs -x -d 'how many at once'
complete -c toolack -n "__fish_seen_subcommand_from call" -s n -l no-wait -d 'dispatch without waiting'
complete -c toolack -n "__fish_seen_subcommand_from call" -s q -l quiet -d 'show no progress on a terminal'
complete -c toolack -n "__fish_seen_subcommand_from call" -s t -l tool -x -a open_url -d 'tool for url records'
complete -c toolack -n "__fish_seen_subcommand_from call" -s u -l unordered -d 'results as they come'
complete -c toolack -n "__fish_seen_subcommand_from call" -s V -l version -d 'print the version'
complete -c toolack -n "__fish_seen_subcommand_from call" -F
complete -c toolack -n "__fish_seen_subcommand_from call ack exec wait" -s U -l url -x -d 'server address'
complete -c toolack -n "__fish_seen_subcommand_from ack" -s s -l status -x -a 'success failed timeout' -d 'status'
complete -c toolack -n "__fish_seen_subcommand_from ack" -s e -l error -x -d 'errorText'
complete -c toolack -n "__fish_seen_subcommand_from ack" -s o -l output -x -d 'output JSON'
complete -c toolack -n "__fish_seen_subcommand_from ack" -s r -l requested-at -x -d 'requestedAt'
complete -c toolack -n "__fish_seen_subcommand_from exec" -s H -l handler -x -a 'open_url=xdg-open' -d 'tool=command'
complete -c toolack -n "__fish_seen_subcommand_from exec" -s i -l idle -x -d 'reconnect after silence'
complete -c toolack -n "__fish_seen_subcommand_from exec" -s x -l executor -x -d 'executor name'
