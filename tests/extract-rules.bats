#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# urlfetch --extract --text: the boilerplate rules by family (comments,
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
	run -0 urlfetch --extract "$X/comments-heading.html" --text
	article_kept
	[[ $output != *COMMENTONE* ]]
	[[ $output != *COMMENTTWO* ]]
	[[ $output != *"Leave a Reply"* ]]
}

@test "extract rules: a comment section by its class (post-comments)" {
	run -0 urlfetch --extract "$X/comments-class.html" --text
	article_kept
	[[ $output != *CLASSCOMMENT* ]]
}

@test "extract rules: a \"Related articles\" list and a \"Read more:\" line" {
	run -0 urlfetch --extract "$X/related.html" --text
	article_kept
	[[ $output != *RELATEDLINE* ]]
	[[ $output != *RELATEDONE* ]]
	[[ $output != *RELATEDTHREE* ]]
	[[ $output != *"Related articles"* ]]
}

@test "extract rules: a newsletter line and a subscription box" {
	run -0 urlfetch --extract "$X/newsletter.html" --text
	article_kept
	[[ $output != *NEWSLETTERLINE* ]]
	[[ $output != *SUBSCRIPTIONBOX* ]]
}

@test "extract rules: an \"About the author\" bio and an author box" {
	run -0 urlfetch --extract "$X/bio.html" --text
	article_kept
	[[ $output != *AUTHORBIO* ]]
	[[ $output != *AUTHORBOX* ]]
	[[ $output != *"About the author"* ]]
}

@test "extract rules: copyright lines and a disclaimer" {
	run -0 urlfetch --extract "$X/disclaimer.html" --text
	article_kept
	[[ $output != *COPYRIGHTLINE* ]]
	[[ $output != *"All rights reserved"* ]]
	[[ $output != *DISCLAIMERBOX* ]]
}
