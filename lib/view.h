/* SPDX-License-Identifier: MIT */
#ifndef UK_VIEW_H
#define UK_VIEW_H

/*
 * A content record as a person reads it on a terminal (urlfetch and
 * pwfetch when standard output is one): a header, then the text wrapped
 * to the screen, all through a pager as git runs one.
 *
 *	if (uk_view_want(STDOUT_FILENO)) {
 *		width = uk_view_width(STDOUT_FILENO);
 *		uk_view_pager_start();
 *		...
 *		uk_view_page(&b, rec, width, colour);
 *		... write b ...
 *	}
 *
 * The pager is $PAGER, or less when it is unset and found on PATH, run
 * with LESS=FRX when LESS is unset (git's default: quit when the text
 * fits one screen, pass colours, leave the text on the screen).  An empty
 * PAGER or "cat" runs none.  Records in a pipe are not this module's.
 */

#include "buf.h"
#include "json.h"

/* The widest a view's text is wrapped to, however wide the terminal. */
#define UK_VIEW_MAX_WIDTH 100

/*
 * Whether output on fd is for a person: fd is a terminal.  (A program
 * asks its options first: --json, -T, --compact and --pretty say.)
 */
int uk_view_want(int fd);

/* The columns to wrap to on terminal fd: its width, at most
 * UK_VIEW_MAX_WIDTH; 80 when it says none. */
int uk_view_width(int fd);

/*
 * Append rec's view to b: the title (bold with colour), the URL, then
 * "type, format, N tokens" (cl100k; a PDF's pages too), a blank line, and
 * the content (else a repository's README and symbol map) wrapped at
 * spaces to width columns, its own line breaks kept, terminal controls
 * made harmless (uk_cli_printable).  The caller puts a blank line between
 * two pages.
 */
void uk_view_page(struct uk_buf *b, yajl_val rec, int width, int colour);

/*
 * Run the pager with standard output as its input, and set it to be
 * waited for at exit (atexit): the program's last output reaches the
 * screen before the shell's prompt.  Returns 1 when a pager runs, 0 when
 * none is to run or it cannot start (output goes on to the terminal).
 */
int uk_view_pager_start(void);

#endif
