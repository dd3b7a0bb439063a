# fish completion for urlfetch(1)
function __urlfetch_sessions
	# The sessions urlcache(1) keeps.
	set -l dir $URLKIT_CACHE_DIR
	if test -z "$dir"
		set -l xdg $XDG_CACHE_HOME
		test -n "$xdg"; or set xdg $HOME/.cache
		set dir $xdg/urlkit
	end
	test -d $dir/sessions; and command ls -1 $dir/sessions 2>/dev/null
end
complete -c urlfetch -s A -l user-agent -x -d 'User-Agent to send'
complete -c urlfetch -s C -l no-cache -d 'Neither read nor write the cache'
complete -c urlfetch -s i -l input -r -F -d 'Read records or URLs from FILE'
complete -c urlfetch -s j -l jobs -x -d 'URLs fetched at once'
complete -c urlfetch -s k -l insecure -d 'Do not verify TLS certificates'
complete -c urlfetch -s m -l max-per-message -x -d 'At most MAX URLs per message'
complete -c urlfetch -s o -l output -r -F -d 'Write the records to FILE'
complete -c urlfetch -s T -l text -d 'Print the main text, not records'
complete -c urlfetch -s P -l allow-private -d 'Allow private and loopback addresses'
complete -c urlfetch -l per-host -x -d 'URLs of one host fetched at once'
complete -c urlfetch -l robots -d 'Fetch only what robots.txt allows'
complete -c urlfetch -s q -l quiet -d 'Show no progress line'
complete -c urlfetch -s r -l refresh -d 'Do not read the cache'
complete -c urlfetch -s S -l session -x -a '(__urlfetch_sessions)' -d 'Also add the records to this session'
complete -c urlfetch -s s -l max-size -x -d 'Largest body taken'
complete -c urlfetch -s t -l timeout -x -d 'Transfer timeout'
complete -c urlfetch -l ttl -x -d 'Cache time to live'
complete -c urlfetch -l cache-remote -x -d 'Remote stores behind the cache'
complete -c urlfetch -s F -l repo-max-files -x -d 'Most files in a repository'
complete -c urlfetch -s J -l map-json -d 'Also the symbol map as JSON'
complete -c urlfetch -s M -l map-tokens -x -d 'Symbol map budget in tokens'
complete -c urlfetch -l pack -x -d 'The best files whole, budget in tokens'
complete -c urlfetch -l include -x -d 'Read only the files a glob matches'
complete -c urlfetch -l exclude -x -d 'Leave out the files a glob matches'
complete -c urlfetch -l json -d 'Records, not -T'"'"'s text'
complete -c urlfetch -l markdown -d 'The same as -f markdown'
complete -c urlfetch -l header -d 'With -T, the header ==> URL <== for one URL too'
complete -c urlfetch -l max-tokens -x -d 'Each page\'s slice, in tokens'
complete -c urlfetch -l offset -x -d 'The slice from this character'
complete -c urlfetch -s D -l readme-tokens -x -d 'README budget in tokens'
complete -c urlfetch -s K -l tokenizer -x -a 'cl100k_base o200k_base' -d 'Tokenizer of the budgets'
complete -c urlfetch -s R -l repo-timeout -x -d 'Time limit of a repository'
complete -c urlfetch -s Z -l repo-max-size -x -d 'Largest repository'
complete -c urlfetch -s f -l format -x -a 'text markdown' -d 'Format of the main text'
complete -c urlfetch -l comments -d 'Also the comment section, in the comments field'
complete -c urlfetch -l images -d 'With -f markdown, keep images'
complete -c urlfetch -l links -d 'With -f markdown, keep links with absolute URLs'
complete -c urlfetch -l max-pages -x -d 'Most pages read of a PDF'
complete -c urlfetch -l select -x -d 'The main text is what a CSS selector matches'
complete -c urlfetch -l remove -x -d 'Drop what a CSS selector matches before extraction'
complete -c urlfetch -l whole -d 'The whole page, no boilerplate removal'
complete -c urlfetch -l explain -d 'What extraction dropped and why, on stderr'
complete -c urlfetch -l compact -d 'One JSON line per record'
complete -c urlfetch -l pretty -d 'Indented records'
complete -c urlfetch -s V -l version -d 'Print the version'
complete -c urlfetch -s h -l help -d 'Print the synopsis, or the options too'
