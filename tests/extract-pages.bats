#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlextract --text: rules for pages that are no article
# (products, collections, listings), each on a page in
# tests/fixtures/extract-pages/ that carries it.  Words in capitals are
# the page's controls, which stay out.

bats_require_minimum_version 1.5.0
load helpers/common

setup() {
	common_setup
	X="$FIXTURES/extract-pages"
}
teardown() { common_teardown; }

@test "extract pages: an accordion's titles (a button that is all a heading) are kept" {
	run -0 urlextract "$X/accordion.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"Trail jacket"* ]]
	[[ $output == *"Material and care"* ]]
	[[ $output == *"Size and fit"* ]]
	[[ $output == *"machine wash at 30 degrees"* ]]
	[[ $output == *"sleeves reaching the wrist."* ]]
	[[ $output != *ADDTOBASKET* ]]
}

@test "extract pages: an accordion's titles are Markdown headings" {
	run -0 urlextract "$X/accordion.html" -f markdown
	[ "$status" -eq 0 ]
	[[ $output == *'\n\n## Material and care\n\nOuter fabric'* ]]
	[[ $output == *'\n\n## Size and fit\n\nRegular fit'* ]]
	[[ $output != *ADDTOBASKET* ]]
}

@test "extract pages: a tablist that holds its tab panels is no list of tabs" {
	# The role is on the widget's wrapper, panels and all: the panel's
	# text is the page's.  A list of tabs alone (role tablist, no
	# panel inside) stays out.
	run -0 urlextract "$FIXTURES/extract-ex16/tabs.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"issues permits for construction and remodeling."* ]]
	[[ $output == *"where the inspector can see it from the street." ]]
	[[ $output != *"Page tab one"* ]]
}

@test "extract pages: a landing page's sections beside the wrappers of the largest are kept" {
	# The questions sit in a section, in a column, in a module that
	# hold nothing else; the other modules are the page's other
	# sections.  The one that holds a form (a contact box) stays out.
	run -0 urlextract "$FIXTURES/extract-ex16/sections.html" --text
	[ "$status" -eq 0 ]
	[[ $output == "Capture more leads"* ]]
	[[ $output == *"before the first call."* ]]
	[[ $output == *"where the customers come from."* ]]
	[[ $output == *"returned or reviewed." ]]
	[[ $output != *"reference number"* ]]
}

@test "extract pages: a post's signature (a Q&A site's card of its author) is set aside" {
	# class "post-signature": the author's name, reputation and badge
	# counts under each answer; the answers stay.
	run -0 urlextract "$FIXTURES/extract-ex16/signature.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *"as they were."* ]]
	[[ $output == *"minutes, not hours."* ]]
	[[ $output == *"it was never complete." ]]
	[[ $output != *"9,895"* ]]
	[[ $output != *"quillfeather"* ]]
}

@test "extract pages: a heading inside a button is a panel's title, kept when its panel holds text" {
	# <button><h3>Title</h3></button> then the panel: WAI-ARIA's
	# accordion turned inside out.  A title over a panel that holds
	# only a menu (a <nav>) is the title of nothing kept.
	run -0 urlextract "$FIXTURES/extract-ex16/button-heading.html" --text
	[ "$status" -eq 0 ]
	[[ $output == *$'Talk to one of our industry experts\n\nAn expert on our team'* ]]
	[[ $output == *"Work with hand-selected talent"* ]]
	[[ $output != *"Our offices"* ]]
}
