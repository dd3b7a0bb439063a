# SPDX-License-Identifier: MIT
# fish completion for urlcache(1)

set -l cmds get set invalidate clear cleanup list stats path session

function __urlcache_sessions
    # The names 'urlcache session' lists (with the -d given, if any).
    set -l words (commandline -opc)
    set -l dir
    for i in (seq (count $words))
        switch $words[$i]
            case -d --dir
                set dir -d $words[(math $i + 1)]
            case '--dir=*'
                set dir -d (string replace -- --dir= '' $words[$i])
        end
    end
    urlcache $dir session --compact 2>/dev/null | string replace -r -f '^\{"session":"([^"]*)".*' '$1'
end

complete -c urlcache -f
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -s d -l dir -r -F -d 'cache directory'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -s q -l quiet -d 'print nothing unless something failed'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -l ttl -x -d 'time to live (s, m, h, d)'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -l cache-remote -x -d 'remote stores behind the cache'
complete -c urlcache -s h -l help -d 'the synopsis (-h) or the options (--help)'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -s V -l version -d 'print the version'

complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a get -d 'cached records of URLs'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a set -d 'store content records'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a invalidate -d 'delete entries'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a clear -d 'delete every entry'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a cleanup -d 'delete expired, corrupt and stray files'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a list -d 'one record per entry'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a stats -d 'counts and sizes'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a path -d 'the directory or an entry file'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -a session -d 'named sessions'

complete -c urlcache -n "__fish_seen_subcommand_from get" -l stale -d 'return expired entries too'
complete -c urlcache -n "__fish_seen_subcommand_from get" -l changed-since -x -d 'every entry changed after this time (RFC 3339, or 1d)'
complete -c urlcache -n "__fish_seen_subcommand_from get invalidate clear" -s S -l session -x -a '(__urlcache_sessions)' -d 'session'
complete -c urlcache -n "__fish_seen_subcommand_from get invalidate" -s i -l input -r -F -d 'url records or URLs from a file'
complete -c urlcache -n "__fish_seen_subcommand_from get set invalidate clear cleanup list stats session" -s o -l output -r -F -d 'write the records to a file'
complete -c urlcache -n "__fish_seen_subcommand_from get set invalidate clear cleanup list stats session" -l compact -d 'one JSON line per record'
complete -c urlcache -n "__fish_seen_subcommand_from get set invalidate clear cleanup list stats session" -l pretty -d 'indented records'
complete -c urlcache -n "__fish_seen_subcommand_from set" -l pass -d 'write each record read'
complete -c urlcache -n "__fish_seen_subcommand_from set" -F
complete -c urlcache -n "__fish_seen_subcommand_from clear" -l remote -d 'clear the remote stores too'
complete -c urlcache -n "__fish_seen_subcommand_from stats" -l zero -d 'zero the counters after showing them'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -l fast -d 'do not read fresh entries'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -l pack -d 'pack small entries however few'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -s s -l max-size -x -d 'keep the cache under this size (500M)'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -s n -l dry-run -d 'remove nothing, list what would go'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -s v -l verbose -d 'list each file removed'
complete -c urlcache -n "__fish_seen_subcommand_from session" -l keep -d 'keep the session past the time to live'
complete -c urlcache -n "__fish_seen_subcommand_from session; and test (count (commandline -opc)) -le 2" -a '(__urlcache_sessions)' -d 'session'
complete -c urlcache -n "__fish_seen_subcommand_from session; and test (count (commandline -opc)) -eq 3" -a 'list add get remove clear'
