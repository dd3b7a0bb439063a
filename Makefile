# SPDX-License-Identifier: MIT
# urlkit: one static library, then one program per cmd/*.c.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

CC ?= cc
PKG_CONFIG ?= pkg-config

# Each program and the pkg-config modules it links (the dependency graph).
urldetect_PKGS = yajl libcurl
urlcache_PKGS  = yajl libcurl libcrypto hiredis
urlfetch_PKGS  = yajl libcurl libcrypto hiredis gumbo libarchive libgit2 libpcre2-8
urlextract_PKGS = yajl gumbo
urlsum_PKGS    = yajl libcurl libcrypto hiredis libpcre2-8
toolack_PKGS   = yajl libcurl libmicrohttpd libcrypto
pwfetch_PKGS   = yajl libcurl gumbo libcrypto libpcre2-8
urlmap_PKGS    = yajl libcurl libcrypto hiredis gumbo expat zlib
urlserve_PKGS  = yajl libcurl libmicrohttpd libcrypto hiredis gumbo libarchive \
	libgit2 libpcre2-8
# Compiled against, linked by none: lib/pdf.c loads poppler-glib with
# dlopen at the first PDF (linking it costs every start of urlfetch and
# urlextract some fifty libraries; see lib/pdf.c).
PDF_PKGS       = poppler-glib

# The programs, each cmd/PROG.c linked with the library and with PROG_OBJS,
# its own code that no other program needs (mblaze's way: it lives beside
# the program in cmd/, not in the library).
PROGS = pwfetch toolack urlcache urldetect urlextract urlfetch urlmap urlserve urlsum
urldetect_OBJS = cmd/urldetect_emit.o cmd/urldetect_opts.o
urlextract_OBJS = cmd/urlextract_opts.o
urlfetch_OBJS = cmd/urlfetch_opts.o cmd/urlfetch_progress.o cmd/urlextract_opts.o
toolack_OBJS = cmd/toolack_call.o cmd/toolack_client.o cmd/toolack_exec.o cmd/toolack_handler.o
pwfetch_OBJS = cmd/pwfetch_input.o cmd/pwfetch_opts.o cmd/urlextract_opts.o
urlsum_OBJS = cmd/urlsum_opts.o
urlmap_OBJS = cmd/urlmap_fetch.o cmd/urlmap_opts.o cmd/urlmap_sources.o
urlcache_OBJS = cmd/urlcache_maint.o cmd/urlcache_session.o
urlserve_OBJS = cmd/urlserve_child.o cmd/urlserve_fetch.o cmd/urlserve_map.o cmd/urlserve_store.o cmd/urlserve_table.o cmd/urlserve_tools.o
# tree-sitter is no package: its runtime is compiled with the grammars
# (GRAMMAR_OBJS).
ALL_PKGS = yajl libcurl libcrypto hiredis gumbo libarchive libgit2 \
	libpcre2-8 libmicrohttpd libzstd liblz4 expat zlib $(PDF_PKGS)
# What the unit tests link: everything but the libraries loaded with dlopen.
LINK_PKGS = $(filter-out $(PDF_PKGS), $(ALL_PKGS))

override CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -O2 -g $(CFLAGS)
ifdef DEVELOPER
override CFLAGS += -Werror -Wshadow -Wpointer-arith -Wstrict-prototypes \
	-Wmissing-prototypes -Wvla -Wdeclaration-after-statement \
	-Wno-error=deprecated-declarations
endif
BUILD = build
ifdef SANITIZE
override CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
# Debian's gcc links with --as-needed (a library none of the program's
# objects uses is left out) except under -fsanitize, where its specs drop
# it: sanitized, urlcache loaded libcurl and its 30 libraries at every
# start, some 50 ms of CPU each (the sanitizers' own libraries stay:
# gcc links them with --no-as-needed of its own).
#
# gcc's UndefinedBehaviorSanitizer runtime, libubsan.so, carries a copy of
# the sanitizers' common runtime, with 6 MB of globals that LeakSanitizer
# reads through at every exit (looking for pointers in them): 3500 page
# faults instead of 2000, some 30 ms of CPU a program.  Linked statically
# (-static-libubsan), it takes that common runtime from libasan instead,
# and reports the same errors.  (clang has no such option: its ASan
# runtime holds UBSan's.)
UBSAN_STATIC := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,-static-libubsan)
override LDFLAGS += -fsanitize=$(SANITIZE) -Wl,--as-needed $(UBSAN_STATIC)
BUILD = build-san
endif
# Asked of pkg-config once, when the Makefile is read: CPPFLAGS is expanded
# at every compile, and with the $(shell) in it each expansion ran
# pkg-config again (70 runs for one `make -n` of a program, which
# scripts/modules does for each).
PKG_CPPFLAGS := $(shell $(PKG_CONFIG) --cflags $(ALL_PKGS) 2>/dev/null)
# The grammars' and the tree-sitter runtime's sources (scripts/grammars).
GRAMMAR_DIR = .grammars
override CPPFLAGS += -Ilib $(PKG_CPPFLAGS) -I$(GRAMMAR_DIR)/runtime/lib/include
DEPFLAGS = -MMD -MP

LIB_SRC := $(wildcard lib/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/liburlkit.a
# The byte-pair encodings' tables (see the rules at the end).
TOKEN_DIR = .tokenizers
TOKENIZERS = cl100k_base o200k_base
TOKEN_OBJS = $(TOKENIZERS:%=$(TOKEN_DIR)/obj/%.o)
BINS := $(PROGS:%=$(BUILD)/bin/%)
UNIT_SRC := $(wildcard tests/unit/t_*.c)
UNITS := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/unit/%)
# Each libFuzzer harness is also a unit test (t_fuzz_NAME) that replays
# tests/fuzz/regress/NAME/ through it as a plain program.
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
UNITS += $(FUZZ_SRC:tests/fuzz/fuzz_%.c=$(BUILD)/unit/t_fuzz_%)
FUZZ_SMOKE_SECONDS ?= 2

all: deps $(BINS)

# A missing package stops the build and names scripts/bootstrap, which
# installs them.  make check and make demo run scripts/bootstrap first,
# once: it leaves a stamp, which a change of scripts/bootstrap renews
# (plain make only names it, and never runs apt-get itself).
BOOTSTRAP_STAMP = .bootstrap-stamp
ifneq ($(filter check demo,$(MAKECMDGOALS)),)
deps: $(BOOTSTRAP_STAMP)
endif
$(BOOTSTRAP_STAMP): scripts/bootstrap
	@echo "make: installing what is missing first: scripts/bootstrap" >&2
	@BOOTSTRAP_STAMP='$@' scripts/bootstrap || { \
	  echo "make: scripts/bootstrap could not install what urlkit needs;" \
	    "run it by hand to see why" >&2; exit 2; }
	@touch '$@'

deps:
	@$(PKG_CONFIG) --exists $(ALL_PKGS) && command -v bats >/dev/null && \
	  command -v jq >/dev/null || { \
	  echo "make: a build dependency is missing: run scripts/bootstrap" >&2; \
	  exit 2; }
.PHONY: all deps check check-build demo clean install uninstall lint-man bench \
	fuzz-smoke valgrind FORCE
.SECONDARY:

# The flags stamp (git's GIT-CFLAGS): $(BUILD)/flags holds the compiler and
# its flags, rewritten only when they change, and every object and program
# depends on it, so `make DEVELOPER=1` after `make` rebuilds.  Taken with
# := when the Makefile is read: a target-specific flag must not change it.
FLAGS_STAMP = $(BUILD)/flags
FLAGS_NOW := $(subst ','\'',$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) $(LDLIBS))
$(FLAGS_STAMP): FORCE
	@mkdir -p $(@D); \
	if [ '$(FLAGS_NOW)' != "$$(cat $@ 2>/dev/null)" ]; then \
	  printf '%s\n' '$(FLAGS_NOW)' >$@; fi

$(BUILD)/%.o: %.c $(FLAGS_STAMP) | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ) $(TOKEN_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# toolack's web frontend, compiled in as a C string: lib/toolack_web.c is
# made from lib/web/toolack.html by scripts/toolack-web.  It is kept in git
# too, so that a build from a fresh checkout needs no Python.
lib/toolack_web.c: lib/web/toolack.html scripts/toolack-web
	scripts/toolack-web

# libarchive comes from its static library, so that only the objects the
# archive route uses are linked (tar and zip read as a stream, their
# filters): the shared library brings libxml2 for formats urlkit never
# reads, and with it ICU and libstdc++, seven libraries that cost some
# 6 ms at every start of urlfetch (scripts/bench repo's floor tree
# 0.044 to 0.039 s).  Its own libraries (zlib, liblzma, libzstd, liblz4,
# libbz2, nettle) stay shared, less libxml2 and libacl, which none of
# those objects calls.
ARCHIVE_LIBS := -l:libarchive.a $(filter-out -larchive -lxml2 -lacl,\
	$(shell $(PKG_CONFIG) --static --libs libarchive 2>/dev/null))
pkg_libs = $(patsubst -larchive,$(ARCHIVE_LIBS),$(shell $(PKG_CONFIG) --libs $(1)))

LINK_PROG = $(CC) $(LDFLAGS) -o $@ $(filter $(BUILD)/cmd/%.o,$^) $(LIB) \
	    $(call pkg_libs,$($*_PKGS)) $(LDLIBS)
PROG_DEPS = $(BUILD)/cmd/%.o $$(addprefix $(BUILD)/,$$($$*_OBJS)) $(LIB) \
	$(FLAGS_STAMP)
.SECONDEXPANSION:
$(BUILD)/bin/%: $(PROG_DEPS)
	@mkdir -p $(@D)
	$(LINK_PROG)

$(BUILD)/unit/%: $(BUILD)/tests/unit/%.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(LIB) \
	    $(call pkg_libs,$(LINK_PKGS)) $(LDLIBS)

$(BUILD)/unit/t_fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o \
    $(BUILD)/tests/fuzz/replay.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $(filter $(BUILD)/tests/%.o,$^) $(LIB) \
	    $(call pkg_libs,$(LINK_PKGS)) $(LDLIBS)

# The whole run (no TESTS=, no SANITIZE=) also runs every fuzzing harness
# for FUZZ_SMOKE_SECONDS when clang has libFuzzer (FUZZ_SMOKE_SECONDS=0:
# never); a crash fails the check.  tests/run builds the harnesses while
# the suites run and runs them as its last job (UK_FUZZ_SMOKE).
# UK_MAKE_FLAGS: for a suite that runs make (man.bats installs), the flags
# this build was made with, so that it finds the build up to date instead
# of rebuilding it under the suites running beside it.
check: all $(UNITS)
	@UK_BIN=$(abspath $(BUILD)/bin) UK_UNIT=$(abspath $(BUILD)/unit) \
	  UK_MAKE_FLAGS='DEVELOPER=$(DEVELOPER) SANITIZE=$(SANITIZE)' \
	  UK_FUZZ_SMOKE=$(if $(TESTS)$(SANITIZE),0,$(FUZZ_SMOKE_SECONDS)) \
	  tests/run $(TESTS)

# What check builds before it runs the suites (.ci/run makes the
# sanitized one while the plain suites run).
check-build: all $(UNITS)

fuzz-smoke:
	scripts/fuzz --smoke $(FUZZ_SMOKE_SECONDS)

# Every suite with every program under valgrind (slow; not part of check):
# a definite leak or a memory error fails the run.  VALGRIND_TESTS= picks
# suites.
valgrind: all $(UNITS)
	@UK_BIN=$(abspath $(BUILD)/bin) UK_UNIT=$(abspath $(BUILD)/unit) \
	  scripts/valgrind $(VALGRIND_TESTS)

demo: all
	@UK_BIN=$(abspath $(BUILD)/bin) scripts/demo

bench: all
	@UK_BIN=$(abspath $(BUILD)/bin) scripts/bench $(NAME)

lint-man:
	mandoc -Tlint -Wwarning man/*.[17]

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(BASHCOMPDIR) \
	    $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 $(PROGS:%=man/%.1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 man/urlkit.7 $(DESTDIR)$(MANDIR)/man7
	for p in $(PROGS); do \
	  install -m 644 completions/bash/$$p $(DESTDIR)$(BASHCOMPDIR)/$$p; \
	  install -m 644 completions/zsh/_$$p $(DESTDIR)$(ZSHCOMPDIR)/_$$p; \
	  install -m 644 completions/fish/$$p.fish $(DESTDIR)$(FISHCOMPDIR)/$$p.fish; \
	done

# What install put there, by the same names and variables (DESTDIR too).
uninstall:
	rm -f $(PROGS:%=$(DESTDIR)$(BINDIR)/%) \
	    $(PROGS:%=$(DESTDIR)$(MANDIR)/man1/%.1) \
	    $(DESTDIR)$(MANDIR)/man7/urlkit.7 \
	    $(PROGS:%=$(DESTDIR)$(BASHCOMPDIR)/%) \
	    $(PROGS:%=$(DESTDIR)$(ZSHCOMPDIR)/_%) \
	    $(PROGS:%=$(DESTDIR)$(FISHCOMPDIR)/%.fish)

clean:
	rm -rf build build-san build-fuzz

# Tree-sitter grammars and runtime: scripts/grammars fetches their sources
# from npm into .grammars/; their objects go to .grammars/obj, which make
# clean leaves alone.  Only urlfetch, urlserve and the unit tests link
# them; the library's objects include the runtime's tree_sitter/api.h.
GRAMMAR_SRC = python/src javascript/src typescript/typescript/src \
	typescript/tsx/src c/src cpp/src go/src rust/src java/src ruby/src
GRAMMAR_SCANNERS = python/src javascript/src typescript/typescript/src \
	typescript/tsx/src cpp/src rust/src ruby/src
GRAMMAR_OBJS = $(GRAMMAR_SRC:%=$(GRAMMAR_DIR)/obj/%/parser.o) \
	$(GRAMMAR_SCANNERS:%=$(GRAMMAR_DIR)/obj/%/scanner.o) \
	$(GRAMMAR_DIR)/obj/queries.o $(TS_RUNTIME_OBJ)
$(GRAMMAR_DIR)/obj/%.o: | $(GRAMMAR_DIR)/.fetched
	@mkdir -p $(@D)
	$(CC) -O2 -fPIC -w -I$(GRAMMAR_DIR)/$(*D) -c -o $@ $(GRAMMAR_DIR)/$*.c
# The runtime, one translation unit (its lib.c), not position-independent
# code of a shared library: its functions inline into one another, which
# Debian's libtree-sitter.so, whose functions can be interposed, does not
# do (12% of the CPU of Django's map; README, Dependencies).
TS_RUNTIME = $(GRAMMAR_DIR)/runtime/lib
TS_RUNTIME_OBJ = $(GRAMMAR_DIR)/obj/runtime/lib.o
$(TS_RUNTIME_OBJ): | $(GRAMMAR_DIR)/.fetched
	@mkdir -p $(@D)
	$(CC) -O2 -std=gnu11 -w -I$(TS_RUNTIME)/include -I$(TS_RUNTIME)/src \
	    -c -o $@ $(TS_RUNTIME)/src/lib.c
$(LIB_OBJ): | $(GRAMMAR_DIR)/.fetched
$(GRAMMAR_DIR)/obj/queries.c: scripts/grammars | $(GRAMMAR_DIR)/.fetched
	@mkdir -p $(@D)
	scripts/grammars --queries >$@.tmp && mv $@.tmp $@
$(GRAMMAR_DIR)/obj/queries.o: $(GRAMMAR_DIR)/obj/queries.c
	$(CC) -w -c -o $@ $<
$(GRAMMAR_DIR)/.fetched: scripts/grammars
	scripts/grammars && touch $@
$(BUILD)/bin/urlfetch: $(GRAMMAR_OBJS)
$(BUILD)/bin/urlfetch: LDLIBS += $(GRAMMAR_OBJS) -lm
$(BUILD)/bin/urlserve: $(GRAMMAR_OBJS)
$(BUILD)/bin/urlserve: LDLIBS += $(GRAMMAR_OBJS) -lm
$(UNITS): $(GRAMMAR_OBJS)
$(UNITS): LDLIBS += $(GRAMMAR_OBJS) -lm
# BM25 (lib/query) takes a logarithm.  urlextract counts tokens
# (lib/tokens) with pcre2 linked in statically, as libarchive is above:
# its start loads no shared library beyond yajl's, gumbo's and libm.
$(BUILD)/bin/pwfetch: LDLIBS += -lm
$(BUILD)/bin/urlextract: LDLIBS += -l:libpcre2-8.a -lm

# Byte-pair encodings: scripts/tokenizers fetches their ranks from npm into
# .tokenizers/ and writes each one's tables as C (.tokenizers/obj/NAME.c);
# their objects go into the library beside lib/tokens.o, which reads them.
$(TOKEN_DIR)/.fetched: scripts/tokenizers
	scripts/tokenizers && touch $@
$(TOKEN_DIR)/obj/%.c: scripts/tokenizers | $(TOKEN_DIR)/.fetched
	@mkdir -p $(@D)
	scripts/tokenizers --c $* >$@.tmp && mv $@.tmp $@
# Tables only: no optimisation to do, and -O0 compiles them in seconds.
$(TOKEN_DIR)/obj/%.o: $(TOKEN_DIR)/obj/%.c
	$(CC) -O0 -w -c -o $@ $<

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
