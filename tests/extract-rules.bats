#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlextract --text: the boilerplate rules by family (comments,
# related lists, newsletter boxes, bylines and bios, disclaimers), each on
# an article page in tests/fixtures/extract-rules/ that carries it.  Every
# page's article is kept whole; the marked boilerplate (words in capitals)
# is gone.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	X="$FIXTURES/extract-rules"
}
teardown() { common_teardown; }

# The article of every fixture: its first and last paragraphs.
article_kept() {
	[[ $output == *"Spring festival at the harbour"* ]]
	[[ $output == *"The harbour town woke early on Saturday"* ]]
	[[ $output == *"painted the banners that hung along the sea wall."* ]]
	[[ $output == *"draw the largest crowd of the weekend."* ]]
}

@test "extract rules: comments under a \"3 Comments\" heading, and the reply form" {
	run -0 urlextract "$X/comments-heading.html" --text
	article_kept
	[[ $output != *COMMENTONE* ]]
	[[ $output != *COMMENTTWO* ]]
	[[ $output != *"Leave a Reply"* ]]
}

@test "extract rules: a comment section by its class (post-comments)" {
	run -0 urlextract "$X/comments-class.html" --text
	article_kept
	[[ $output != *CLASSCOMMENT* ]]
}

@test "extract rules: a \"Related articles\" list and a \"Read more:\" line" {
	run -0 urlextract "$X/related.html" --text
	article_kept
	[[ $output != *RELATEDLINE* ]]
	[[ $output != *RELATEDONE* ]]
	[[ $output != *RELATEDTHREE* ]]
	[[ $output != *"Related articles"* ]]
}

@test "extract rules: a newsletter line and a subscription box" {
	run -0 urlextract "$X/newsletter.html" --text
	article_kept
	[[ $output != *NEWSLETTERLINE* ]]
	[[ $output != *SUBSCRIPTIONBOX* ]]
}

@test "extract rules: calls to follow the site, get its app, or log in as a subscriber" {
	run -0 urlextract "$X/follow.html" --text
	article_kept
	[[ $output != *FOLLOWLINE* ]]
	[[ $output != *APPLINE* ]]
	[[ $output != *SUBSCRIBERLINE* ]]
}

@test "extract rules: an \"About the author\" bio and an author box" {
	run -0 urlextract "$X/bio.html" --text
	article_kept
	[[ $output != *AUTHORBIO* ]]
	[[ $output != *AUTHORBOX* ]]
	[[ $output != *"About the author"* ]]
}

@test "extract rules: copyright lines and a disclaimer" {
	run -0 urlextract "$X/disclaimer.html" --text
	article_kept
	[[ $output != *COPYRIGHTLINE* ]]
	[[ $output != *"All rights reserved"* ]]
	[[ $output != *DISCLAIMERBOX* ]]
}

@test "extract rules: image captions and credit lines" {
	run -0 urlextract "$X/caption.html" --text
	article_kept
	[[ $output != *CAPTIONTEXT* ]]
	[[ $output != *CREDITLINE* ]]
	[[ $output != *CREDITPLAIN* ]]
}

@test "extract rules: a teaser of another article inside the article" {
	run -0 urlextract "$X/teaser.html" --text
	article_kept
	[[ $output != *TEASERTITLE* ]]
	[[ $output != *TEASERTEXT* ]]
}

@test "extract rules: the author's card by its class (entry-author)" {
	run -0 urlextract "$X/author-class.html" --text
	article_kept
	[[ $output != *AUTHORCARD* ]]
}

@test "extract rules: customer reviews, by heading and by class, are comments" {
	run -0 urlextract "$X/reviews.html" --text
	article_kept
	[[ $output != *REVIEWHEAD* ]]
	[[ $output != *REVIEWCLASS* ]]
	[[ $output != *"Customer reviews"* ]]
	# With --comments they go to the comments field.
	run -0 --separate-stderr urlextract "$X/reviews.html" --comments
	comments=$(jq -r .comments <<<"$output")
	[[ $comments == *REVIEWHEAD* ]]
	[[ $comments == *REVIEWCLASS* ]]
}

@test "extract rules: \"Further reading\" links and the article's tags" {
	run -0 urlextract "$X/more-heads.html" --text
	article_kept
	[[ $output != *MORELINK* ]]
	[[ $output != *TAGONE* ]]
	[[ $output != *"Further reading"* ]]
}

@test "extract rules: a shop's \"Customers also bought\" box, items without prose" {
	run -0 urlextract "$X/shop.html" --text
	article_kept
	[[ $output != *SHOPITEM* ]]
	[[ $output != *"Customers also bought"* ]]
}

@test "extract rules: an app shell's text is empty, not its JavaScript notice" {
	run -0 --separate-stderr urlextract "$X/app-shell.html"
	[ "$(jq -r .needs_browser <<<"$output")" = true ]
	[ "$(jq -r .content <<<"$output")" = "" ]
	[[ $stderr == *needs_browser*pwfetch* ]]
}

@test "extract rules: a paragraph that is only a link, among the article's prose" {
	run -0 urlextract "$X/link-line.html" --text
	article_kept
	[[ $output != *LINKLINE* ]]
}

@test "extract rules: no main block: the body less menus, cookie notice and footer" {
	run -0 urlextract "$FIXTURES/extract-fallback/tiles.html"
	[ "$(jq -r .extraction <<<"$output")" = fallback ]
	content=$(jq -r .content <<<"$output")
	[[ $content == *TILEONE*TILEFIVE* ]]
	[[ $content == *"EUR 9.00"* ]]
	[[ $content != *COOKIENOTE* ]]
	[[ $content != *NAVHOME* ]]
	[[ $content != *FOOTNOTE* ]]
	run -0 urlextract "$FIXTURES/extract-fallback/tiles.html" -f markdown
	content=$(jq -r .content <<<"$output")
	[[ $content == "# Lanterns"*TILEFIVE* ]]
	[[ $content != *NAVHOME* ]]
}

@test "extract rules: no main block, and the rules would leave little: the whole text" {
	run -0 urlextract "$FIXTURES/extract-fallback/all-boilerplate.html" --text
	[[ $output == *WHOLEONE*WHOLETEN* ]]
	[[ $output == *"Deliveries on Tuesdays" ]]
}

@test "extract rules: a product's description joins the specifications chosen beside it" {
	run -0 urlextract "$FIXTURES/extract-fallback/product.html" --text
	[[ $output == *"Harbour Storm Lantern"*DESCLINE*SPECLINE*BOXLINE* ]]
	[[ $output != *Contact* ]]
}

@test "extract rules: links and lines that are the page's controls (print, pin, no comments yet)" {
	run -0 urlextract "$X/controls.html" --text
	article_kept
	[[ $output != *"Print Recipe"* ]]
	[[ $output != *Pinnen* ]]
	[[ $output != *"Bisher keine Kommentare"* ]]
}

@test "extract rules: \"Empfehlungen aus der Redaktion\" and \"Other articles\" sections" {
	run -0 urlextract "$X/other-heads.html" --text
	article_kept
	[[ $output != *OTHERONE* ]]
	[[ $output != *OTHERTWO* ]]
	[[ $output != *OTHERTHREE* ]]
	[[ $output != *Empfehlungen* ]]
}

@test "extract rules: the page's labels standing alone (permalink, contact, last updated, categories)" {
	run -0 urlextract "$X/labels.html" --text
	article_kept
	[[ $output != *Permalink* ]]
	[[ $output != *Kontakt* ]]
	[[ $output != *"Last updated"* ]]
	[[ $output != *Categories* ]]
}

@test "extract rules: the headline and lead above the chosen paragraphs are kept, not a byline" {
	run -0 urlextract "$X/lead.html" --text
	article_kept
	[[ $output == "Spring festival at the harbour"*LEADLINE*"The harbour town woke early"* ]]
	# A short line among them (a byline) is not.
	[[ $output != *"By Ann Example"* ]]
	[[ $output != *Sport* ]]
}

@test "extract rules: not a lead: links under the site's <h1> above the article" {
	run -0 urlextract "$X/lead-menu.html" --text
	article_kept
	[[ $output != *MENUONE* ]]
	[[ $output != *"Example Journal"* ]]
}

@test "extract rules: a carousel of other products with prices goes, a carousel of the product's own panels stays" {
	run -0 urlextract "$X/carousel.html" --text
	[[ $output == *"Harbour lantern, hand painted"* ]]
	[[ $output == *"Our harbour lantern is hand painted"* ]]
	[[ $output == *"Height | 32 cm"* ]]
	[[ $output == *PANELONE*PANELTWO*PANELTHREE* ]]
	[[ $output != *CARDONE* ]]
	[[ $output != *CARDFOUR* ]]
	[[ $output != *'$19.99'* ]]
}

@test "extract rules: a related heading set aside by its wrapper's class still takes its list with it" {
	run -0 urlextract "$X/hidden-heading.html" --text
	article_kept
	[[ $output != *HIDDENONE* ]]
	[[ $output != *HIDDENTWO* ]]
	[[ $output != *HIDDENTHREE* ]]
	[[ $output != *"run an hour later"* ]]
}

@test "extract rules: headings of more videos, similar stories, tags, more information (Weitere Informationen), the press contact; a no-break space after the colon" {
	run -0 urlextract "$X/heads-sixth.html" --text
	article_kept
	[[ $output != *NBSPONE* ]]
	[[ $output != *NBSPTWO* ]]
	[[ $output != *VIDEOONE* ]]
	[[ $output != *VIDEOTWO* ]]
	[[ $output != *SIMILARONE* ]]
	[[ $output != *SIMILARTWO* ]]
	[[ $output != *TAGONE* ]]
	[[ $output != *MOREINFOONE* ]]
	[[ $output != *MOREINFOTWO* ]]
	[[ $output != *CONTACTONE* ]]
	[[ $output != *press@example.org* ]]
}

@test "extract rules: a line that names the source (Quelle:, Source:) goes" {
	run -0 urlextract "$X/source-line.html" --text
	article_kept
	[[ $output != *SOURCEONE* ]]
	[[ $output != *SOURCETWO* ]]
}

@test "extract rules: a box of links ends at a paragraph without a link (the article's next lines stay)" {
	run -0 urlextract "$X/section-ends.html" --text
	[[ $output == *"Spring festival at the harbour"* ]]
	[[ $output == *"draw the largest crowd of the weekend."* ]]
	[[ $output != *BOXONE* ]]
	[[ $output == *"Asked about the weather, the mayor smiled."*"The forecast for Sunday is dry and mild"* ]]
}

# German "Tag" is a day: "Tag 2" heads the article's own section, not a
# list of tags (a heading's count is trimmed before it is compared).
@test "extract rules: a travel diary's \"Tag 1\", \"Tag 2\" headings are the article's days, not its tags" {
	run -0 urlextract "$X/day-headings.html" --text
	[[ $output == *"Tag 1"*"Am ersten Morgen"*"Tag 2"* ]]
	[[ $output == *"Markt am Hafenplatz"*"Abends Laternenumzug"* ]]
	[[ $output == *"Tag 3"*"Postkarten an alle"* ]]
	[[ $output != *Impressum* ]]
}

# A forum post's author box: the member's name stays (it says who
# speaks), the member's details and counts go, whether written as pairs
# (<dl>: "Joined", an icon titled "Messages"), as "Posts: 710" or as
# "2,345 posts"; "Click to expand..." is the quote's control.
@test "extract rules: a forum member's details and counts go, the member's name and the posts stay" {
	run -0 urlextract "$X/ex12-forum-member.html" --text
	[[ $output == *"Our old storm lantern smokes badly"*"hangs in the cabin all night?"* ]]
	[[ $output == *"Lamp oil sold as clear paraffin"*"Seconded on the wick"* ]]
	[[ $output == *netmaker*quaykeeper*saltwick* ]]
	[[ $output != *JOINEDONE* ]]
	[[ $output != *LOCATIONONE* ]]
	[[ $output != *"2,345 posts"* ]]
	[[ $output != *MESSAGESTWO* ]]
	[[ $output != *"Reaction score"* ]]
	[[ $output != *"518 helpful votes"* ]]
	[[ $output != *"Registered: 2016"* ]]
	[[ $output != *"Posts: 710"* ]]
}

@test "extract rules: a quote's \"Click to expand...\" goes" {
	run -0 urlextract "$X/ex12-forum-member.html" --text
	[[ $output == *"Has anyone found an oil that burns clean?"* ]]
	[[ $output != *"Click to expand"* ]]
}

# What the page's scripts say when a step fails or cannot run, and a
# template's placeholder, are not what the page says.
@test "extract rules: a script's error messages and the JavaScript notice go" {
	run -0 urlextract "$X/ex12-shop-messages.html" --text
	[[ $output == *"Our harbour lantern is hand painted"*"no two of them are quite the same."* ]]
	[[ $output != *JAVASCRIPTONE* ]]
	[[ $output != *ERRORONE* ]]
	[[ $output != *ERRORTWO* ]]
}

@test "extract rules: a template's \"Lorem ipsum\" placeholder goes, the panels around it stay" {
	run -0 urlextract "$X/ex12-shop-messages.html" --text
	[[ $output == *"Made by hand"*"Painted to last"*"do not fade in the sun"* ]]
	[[ $output != *PLACEHOLDERONE* ]]
}

@test "extract rules: a forum's controls (Report ...) and a member's title (Senior Member) go" {
	run -0 urlextract "$X/ex12-forum-member.html" --text
	[[ $output == *"hangs in the cabin all night?"*quaykeeper*"Lamp oil sold"* ]]
	[[ $output != *"Senior Member"* ]]
	[[ $output != *"Report inappropriate content"* ]]
}

# The heading of a table of contents names no part of the text (the list
# under it is links to the page's own headings).
@test "extract rules: a \"Table of Contents\" heading goes, the article's headings stay" {
	run -0 urlextract "$X/ex12-toc.html" --text
	article_kept
	[[ $output == *"The banners"* ]]
	[[ $output != *"Table of Contents"* ]]
}

@test "extract rules: a post's counts (\"2 replies\", \"12 reactions\" with a no-break space) go" {
	run -0 urlextract "$X/ex12-forum-member.html" --text
	[[ $output == *"hangs in the cabin all night?"*"Lamp oil sold"* ]]
	[[ $output != *"2 replies"* ]]
	[[ $output != *reactions* ]]
}

# A list of links that the text introduces with a colon ("the harbour
# office publishes them ...:") is the text's own list, not a box of
# teasers; a list of links without it still goes.
@test "extract rules: a list of links introduced by a colon stays, a box of teasers goes" {
	run -0 urlextract "$X/ex12-link-list.html" --text
	article_kept
	[[ $output == *"for each day of the festival:"*GUIDEONE*GUIDEFOUR*"The mayor, speaking"* ]]
	[[ $output != *TEASERONE* ]]
	[[ $output != *TEASERTHREE* ]]
}

# "More on*" names a section when it is a heading ("More on this
# story"); a short paragraph that ends as a sentence says something.
@test "extract rules: a short sentence that starts like a related heading (\"More on the lanterns ...\") stays" {
	run -0 urlextract "$X/ex12-sentence.html" --text
	article_kept
	[[ $output == *"More on the lanterns in tomorrow's edition."*SENTENCEONE* ]]
}

# A forum writes the head of a quote ("netmaker said:") inside the
# quote; a writer's "the mayor said:" stands before it and stays.
@test "extract rules: a forum quote's head (\"netmaker said:\") goes, an article's \"the mayor said:\" stays" {
	run -0 urlextract "$X/ex12-forum-member.html" --text
	[[ $output == *"Has anyone found an oil that burns clean?"* ]]
	[[ $output != *"netmaker said:"* ]]
	run -0 urlextract "$X/ex12-sentence.html" --text
	[[ $output == *"Asked about the weather, the mayor said:"*"The forecast for Sunday is dry and mild"* ]]
}

@test "extract rules: a Q&A site's \"answered Oct 16, 2010 at 22:13\" under a post goes" {
	run -0 urlextract "$X/ex12-forum-member.html" --text
	[[ $output == *"Seconded on the wick"*"ready trimmed for a few coins."* ]]
	[[ $output != *"answered Oct 16"* ]]
}

# An accordion's answers are hidden until their question is clicked
# (style="display:none", the hidden attribute); a reader opens them, so
# they are text.  What is hidden inside an answer, and a form's hidden
# field note under a lone question, stay out.
@test "extract rules: a FAQ's hidden answers (display:none, hidden) are kept" {
	run -0 urlextract "$FIXTURES/extract-ex14/faq.html" --text
	[[ $output == *"Can the lantern stand outside in the rain?"*ANSWERONE*"What oil does it burn?"*ANSWERTWO*"Is every lantern signed?"*ANSWERTHREE* ]]
	[[ $output != *HIDDENINSIDE* ]]
	[[ $output != *SCRIPTINSIDE* ]]
	[[ $output != *FIELDNOTE* ]]
}

# The carousel rule reads aria-roledescription as well as the class:
# the page's shrinking before parsing must keep that attribute.
@test "extract rules: a carousel named only by aria-roledescription, with prices, goes" {
	run -0 urlextract "$FIXTURES/extract-ex14/roledescription.html" --text
	[[ $output == *"Our harbour lantern is hand painted"*"quite the same."* ]]
	[[ $output != *CARDONE* ]]
	[[ $output != *CARDTHREE* ]]
}

# A UUID that is all an element's text is a script's identifier (a shop
# hides them between the letters of "Sponsored"); one in a sentence is
# the writer's and stays.
@test "extract rules: an element that is only a UUID goes, a UUID in a sentence stays" {
	run -0 urlextract "$FIXTURES/extract-ex14/uuid.html" --text
	[[ $output == *"(ours was 3f2b1c9e-0d4a-4e8b-9c1f-2a6d7e8f9a0b), which the workshop keeps for repairs."* ]]
	[[ $output != *f2f260c3* ]]
	[[ $output != *16207F0D* ]]
}

# A grid's cards (three siblings or more of one tag and class) repeat
# lines, each for its own product: every copy stays.  A repeat that is
# no card's line still goes: a notice written above and below the grid,
# and a control link on a line of its own ("View details").
@test "extract rules: a grid's cards keep their repeated lines, other repeats go" {
	run -0 urlextract "$FIXTURES/extract-ex15/cards.html" --text
	[ "$(grep -c '^Burns lamp oil or a candle$' <<<"$output")" -eq 3 ]
	[ "$(grep -c '^Painted by hand in the workshop$' <<<"$output")" -eq 4 ]
	[ "$(grep -c '^Height: 45 cm$' <<<"$output")" -eq 2 ]
	[[ $output == *"The Puffin lantern"*"Burns lamp oil or a candle"*"Height: 45 cm"*"Starting at 71 pounds"* ]]
	[ "$(grep -c 'wooden crate from the harbour workshop' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^View details$' <<<"$output")" -eq 1 ]
}

# Markdown keeps them likewise: the note goes before the "### " of a
# card's title and the line's own prefix.
@test "extract rules: a grid's cards keep their repeated lines in Markdown too" {
	run -0 urlextract "$FIXTURES/extract-ex15/cards.html" --text -f markdown
	[ "$(grep -c '^Burns lamp oil or a candle$' <<<"$output")" -eq 3 ]
	[ "$(grep -c '^Painted by hand in the workshop$' <<<"$output")" -eq 4 ]
	[ "$(grep -c '^Height: 45 cm$' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^### The [A-Z][a-z]* lantern$' <<<"$output")" -eq 4 ]
	[ "$(grep -c 'wooden crate from the harbour workshop' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^View details$' <<<"$output")" -eq 1 ]
	! grep -q $'\x1f' <<<"$output"
}

# Posts are a grid too, but a quote of an earlier post sits deeper in
# its post than the post's own text: it is no card's line, and goes.
@test "extract rules: a forum quote of an earlier post is not kept twice" {
	run -0 urlextract "$FIXTURES/extract-ex15/thread.html" --text
	[ "$(grep -c 'which oil burns cleanly' <<<"$output")" -eq 1 ]
	[[ $output == *"Paraffin lamp oil works well"*"Same here: lamp oil"* ]]
}

# Material Icons and Material Symbols draw a glyph for a word written in
# the element ("lightbulb", "expand_more"): the word names a picture.  A
# class that only starts like theirs, and the words in a sentence, stay.
@test "extract rules: an icon font's glyph names go" {
	run -0 urlextract "$FIXTURES/extract-ex15/icons.html" --text
	[[ $output == *"Keep the glass chimney clear"*"Store the lantern dry"* ]]
	[[ $output == *"the material icons of our catalogue"* ]]
	[[ $output == *"Brass darkens fastest near the sea."* ]]
	[[ $output != *lightbulb* ]]
	[[ $output != *expand_more* ]]
}

@test "extract rules: other stories' teasers after the article (headline link, byline, timestamp) go" {
	run -0 urlextract "$X/teasers.html" --text
	[[ $output == "Council approves the new harbour wall"*"paragraph 1 of the story"*"paragraph 6 of the story"* ]]
	[[ $output != *"COAST WIRE"* ]]
	[[ $output != *"Fishermen count the cost"* ]]
	[[ $output != *"11/20/2019"* ]]
}

@test "extract rules: closed tab panels are the page's text, other hidden boxes go" {
	run -0 urlextract "$X/tab-panels.html" --text
	[[ $output == *"This guide shows how to send a message"* ]]
	[[ $output == *"Create a file called send.py"* ]]
	[[ $output == *"PANELTWO Create a module"* ]]
	[[ $output == *"PANELTHREE Add the package"* ]]
	[[ $output == *"the last part of this guide shows"* ]]
	[[ $output != *HIDDENDRAWER* ]]
}

@test "extract rules: an accordion's or a FAQ's panels named as drop-downs and menus are text" {
	run -0 urlextract "$X/faq-panels.html" --text
	[[ $output == *"Over twelve weeks, two evenings a week"* ]]
	[[ $output == *"DROPDOWNONE No: the workshop lends"* ]]
	[[ $output == *"DROPDOWNTWO The fee covers the timber"* ]]
	[[ $output == *"FAQMENU Places are given"* ]]
	[[ $output != *NAVDROPDOWN* ]]
}

@test "extract rules: a shop's search results are its text, a search box is not" {
	run -0 urlextract "$X/search-results.html" --text
	[[ $output == *"Our silver earrings are made by hand"* ]]
	[[ $output == *"Reflect earrings, sterling silver"* ]]
	[[ $output == *"RESULTTHREE Harbour hoops"* ]]
	[[ $output != *SEARCHBOX* ]]
}

@test "extract rules: an accordion's closed panels are text, other hidden boxes go" {
	run -0 urlextract "$X/accordion-panels.html" --text
	[[ $output == *"A tent is a home for the nights"* ]]
	[[ $output == *"Tents are sold by the number of sleepers"* ]]
	[[ $output == *"ACCORDIONTWO Three-season tents"* ]]
	[[ $output == *"ACCORDIONTHREE On foot"* ]]
	[[ $output != *HIDDENMENU* ]]
}

@test "extract rules: a heading's own link is the heading, whatever its class says" {
	run -0 urlextract "$X/heading-anchor.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"ANCHORONE Shared references"* ]]
	[[ $output == *"ANCHORTWO Mutable references"* ]]
	[[ $output == *"ANCHORTHREE The rules of references"* ]]
	[[ $output == *"every reference must be valid"* ]]
	[[ $output != *"Previous chapter"* ]]
}

@test "extract rules: a documentation page's opening definition in its header is text" {
	run -0 urlextract "$X/doc-opening.html" --json
	[ "$status" -eq 0 ]
	[[ $output == *'"page_type":"documentation"'* ]]
	run -0 urlextract "$X/doc-opening.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"OPENINGDEF The window() method of an array"* ]]
	[[ $output == *"A RangeError is thrown when the size"* ]]
	[[ $output != *Previous* ]]
	[[ $output != *"Content by the Widget Docs"* ]]
	[[ ${output%%OPENINGDEF*} != *Syntax* ]]
}

@test "extract rules: calls to sign up, to support the site, to get its app" {
	run -0 urlextract "$X/support-call.html" --text
	[ "$status" -eq 0 ]
	article_kept
	[[ $output != *SIGNUPLINE* ]]
	[[ $output != *SUPPORTLINE* ]]
	[[ $output != *PHONELINE* ]]
	[[ $output != *HELPLINE* ]]
	[[ $output != *RELYLINE* ]]
}

@test "extract rules: a picture's credit line after the article" {
	run -0 urlextract "$X/credit-lines.html" --text
	[ "$status" -eq 0 ]
	article_kept
	[[ $output != *FEATUREDLINE* ]]
	[[ $output != *BEITRAGSBILDLINE* ]]
	[[ $output != *PHOTOSOURCELINE* ]]
}

@test "extract rules: a heading that is another story's headline after \"Read also:\"" {
	run -0 urlextract "$X/see-also-heading.html" --text
	[ "$status" -eq 0 ]
	article_kept
	[[ $output != *SEEALSOHEAD* ]]
	[[ $output != *SEEALSOTWO* ]]
}

@test "extract rules: a post's line of categories or tags (\"Category: News\")" {
	run -0 urlextract "$X/meta-labels.html" --text
	[ "$status" -eq 0 ]
	article_kept
	[[ $output != *CATEGORYLINE* ]]
	[[ $output != *TAGSLINE* ]]
	[[ $output != *SCHLAGLINE* ]]
}

@test "extract rules: a picture's description named as one (imagedescription)" {
	run -0 urlextract "$X/picture-notes.html" --text
	[ "$status" -eq 0 ]
	article_kept
	[[ $output != *IMAGENOTEONE* ]]
	[[ $output != *IMAGENOTETWO* ]]
}
