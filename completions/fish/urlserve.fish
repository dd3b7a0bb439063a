# fish completion for urlserve(1)
function __urlserve_sessions
	# The sessions urlcache(1) keeps.
	set -l dir $URLKIT_CACHE_DIR
	if test -z "$dir"
		set -l xdg $XDG_CACHE_HOME
		test -n "$xdg"; or set xdg $HOME/.cache
		set dir $xdg/urlkit
	end
	test -d $dir/sessions; and command ls -1 $dir/sessions 2>/dev/null
end
complete -c urlserve -f
complete -c urlserve -s G -l max-fetched -x -d 'A client\'s fetched set, in bytes with a unit'
complete -c urlserve -l ignore-robots -d 'Fetch what robots.txt disallows'
complete -c urlserve -s j -l jobs -x -d 'Tool calls at once'
complete -c urlserve -s l -l listen -x -d 'Serve HTTP at this address'
complete -c urlserve -s O -l open-private -d 'open_url opens internal addresses too'
complete -c urlserve -s Q -l max-queued -x -d 'The calls held, in bytes with a unit'
complete -c urlserve -s S -l session -x -a '(__urlserve_sessions)' -d 'Keep the fetched set as this urlcache session'
complete -c urlserve -l tools -x -a 'lean detect_urls fetch_url detect_and_fetch get_url_content get_fetched_urls remove_fetched_url clear_fetched invalidate_url_cache clear_url_cache format_url_context open_url map_site render_url' -d 'Only these tools'
complete -c urlserve -s t -l timeout -x -d 'A fetch\'s time limit'
complete -c urlserve -l token-file -r -F -d 'The HTTP token file'
complete -c urlserve -s V -l version -d 'Print the version'
complete -c urlserve -s h -l help -d 'Print the synopsis, or all options'
