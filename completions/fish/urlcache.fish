# SPDX-License-Identifier: MIT
# fish completion for urlcache(1)

set -l cmds get set invalidate clear cleanup list stats path session

function __urlcache_sessions
    set -l dir $URLKIT_CACHE_DIR
    if test -z "$dir"
        if test -n "$XDG_CACHE_HOME"
            set dir $XDG_CACHE_HOME/urlkit
        else
            set dir $HOME/.cache/urlkit
        end
    end
    if test -d $dir/sessions
        command ls -1 $dir/sessions 2>/dev/null
    end
end

complete -c urlcache -f
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -s d -l dir -r -F -d 'cache directory'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -s q -l quiet -d 'print nothing unless something failed'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -s t -l ttl -x -d 'time to live (s, m, h, d)'
complete -c urlcache -n "not __fish_seen_subcommand_from $cmds" -s h -l help -d 'print the usage'
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

complete -c urlcache -n "__fish_seen_subcommand_from get" -s s -l stale -d 'return expired entries too'
complete -c urlcache -n "__fish_seen_subcommand_from get invalidate clear" -s S -l session -x -a '(__urlcache_sessions)' -d 'session'
complete -c urlcache -n "__fish_seen_subcommand_from set" -s p -l pass -d 'write each record read'
complete -c urlcache -n "__fish_seen_subcommand_from set" -F
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -s f -l fast -d 'do not read fresh entries'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -s m -l max-size -x -d 'keep the cache under this size'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -s n -l dry-run -d 'remove nothing, list what would go'
complete -c urlcache -n "__fish_seen_subcommand_from cleanup" -s v -l verbose -d 'list each file removed'
complete -c urlcache -n "__fish_seen_subcommand_from session; and test (count (commandline -opc)) -le 2" -a '(__urlcache_sessions)' -d 'session'
complete -c urlcache -n "__fish_seen_subcommand_from session; and test (count (commandline -opc)) -eq 3" -a 'list add get remove clear'
