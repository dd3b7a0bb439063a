#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a page's main text lies against the part the extractor chose.

usage: type-where.py dump DEV BIN OUTDIR     (each page's tree, by BIN)
       type-where.py table DEV OUTDIR [--fold K] [--pages TYPE]

`dump` runs urlextract BIN on every page of the dev split DEV with
UK_EXTRACT_TREE set (lib/extract_items.c), one NAME.jsonl and NAME.txt
(the text written) a page into OUTDIR.  `table` reads them and prints,
by page type: the pages, mean word precision and recall of the output
(the evaluator's bag of words); where the truth's words lie: in the
part chosen, in text the boilerplate rules dropped before any choice,
in the chosen part's parent or grandparent beside it, elsewhere; and
the best single subtree (the element whose text, less boilerplate, has
the best word F1 against the truth, estimated from block labels): its
mean F1 (the ceiling of choosing one part) against the rules' part's,
estimated the same way, and whether it is the nearest common ancestor
of the rules' part, an ancestor of it (the rules chose too little), a
descendant (too much) or apart from it (the wrong part).  With --pages
TYPE, one line for each page of that type instead.

Blocks are the text under each nearest non-inline element; a block's
label is the share of its word trigrams (unigrams under three words)
found in the truth, consumed in document order as scripts/train-extract
labels blocks.
"""
import json
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

F_TEXT, F_SKIP, F_SEL = 0x01, 0x02, 0x2000
F_MODEL = 0x4000 | 0x8000  # set aside by the block model, not a rule
INLINE = set('a abbr b bdi bdo cite code data dfn em font i kbd mark q s '
             'samp small span strong sub sup time u var wbr label'.split())
WORD = re.compile(r'\w+')


def words(s):
    return WORD.findall((s or '').lower())


def in_fold(url, k):
    import hashlib
    d = re.sub(r'^www\.', '', (re.match(r'^[a-z]+://([^/:]+)', url or '')
                               or [None, ''])[1].lower())
    return int(hashlib.sha256(d.encode()).hexdigest(), 16) % 2 == k


def pages(dev):
    for fn in sorted(os.listdir(dev)):
        if fn.endswith('.json'):
            yield fn[:-5], json.load(open(os.path.join(dev, fn),
                                          encoding='utf-8'))


def dump(dev, binary, out):
    os.makedirs(out, exist_ok=True)
    cache = os.path.join(os.environ.get('XDG_CACHE_HOME') or
                         os.path.expanduser('~/.cache'),
                         'evaluate-extract', os.path.basename(
                             os.path.abspath(dev)))

    def one(name):
        html = os.path.join(cache, name + '.html')
        tree = os.path.join(out, name + '.jsonl')
        if os.path.exists(tree):
            os.unlink(tree)
        env = dict(os.environ, UK_EXTRACT_TREE=tree)
        r = subprocess.run([binary, html, '--text'], env=env,
                           capture_output=True, timeout=60)
        with open(os.path.join(out, name + '.txt'), 'wb') as f:
            f.write(r.stdout)
    with ThreadPoolExecutor(2) as ex:
        list(ex.map(one, [n for n, _ in pages(dev)]))


class Page:
    """One page's tree: nodes, blocks, labels."""

    def __init__(self, rec, truth):
        n = rec['n']
        self.type = rec['type']
        self.fallback = rec['fallback']
        self.par = [x[0] for x in n]
        self.tag = [x[1] for x in n]
        self.cls = [x[2] for x in n]
        self.flags = [x[3] for x in n]
        N = len(n)
        self.skip = [False] * N
        self.depth = [0] * N
        for i in range(N):
            p = self.par[i]
            self.skip[i] = bool(self.flags[i] & F_SKIP and
                                not self.flags[i] & F_MODEL) or (
                p >= 0 and self.skip[p])
            self.depth[i] = self.depth[p] + 1 if p >= 0 else 0
        # The block of each text node: its nearest non-inline ancestor.
        btext = defaultdict(list)
        self.bsel = Counter()   # words of a block the rules chose
        self.bout = Counter()   # words of a block in the output
        for i in range(N):
            if self.tag[i] != '#':
                continue
            b = self.par[i]
            while b > 0 and self.tag[b] in INLINE:
                b = self.par[b]
            w = words(n[i][4])
            if not w:
                continue
            btext[b].append((w, i))
        self.blocks = sorted(btext)
        tri = Counter()
        tw = words(truth)
        for k in range(len(tw) - 2):
            tri[tuple(tw[k:k + 3])] += 1
        uni = Counter(tw)
        self.truthlen = len(tw)
        self.bw = {}      # words of each block (all of its text nodes)
        self.btrue = {}   # of which true (estimated)
        self.bskip = {}   # words of the block the boilerplate dropped
        for b in self.blocks:
            ws = [w for w, _ in btext[b]]
            flat = [x for w in ws for x in w]
            nw = len(flat)
            if nw >= 3:
                t = sum(1 for k in range(nw - 2)
                        if self._take(tri, tuple(flat[k:k + 3])))
                share = t / (nw - 2)
            else:
                share = sum(1 for x in flat if self._take(uni, x)) / nw
            self.bw[b] = nw
            self.btrue[b] = share * nw
            self.bskip[b] = sum(len(w) for w, i in btext[b]
                                if self.skip[i])
            self.bsel[b] = sum(len(w) for w, i in btext[b]
                               if self.flags[i] & F_SEL)
            self.bout[b] = sum(len(w) for w, i in btext[b]
                               if not self.skip[i] and
                               not self.flags[i] & F_MODEL)

    @staticmethod
    def _take(c, k):
        if c[k] > 0:
            c[k] -= 1
            return True
        return False

    def ancestors(self, i):
        while i >= 0:
            yield i
            i = self.par[i]

    def lca(self, nodes):
        nodes = list(nodes)
        if not nodes:
            return -1
        a = set(self.ancestors(nodes[0]))
        for x in nodes[1:]:
            a &= set(self.ancestors(x))
        return max(a, key=lambda x: self.depth[x])

    def subtree_sums(self):
        """Words kept (not skipped) and true kept words of each subtree."""
        N = len(self.par)
        kw = [0.0] * N
        kt = [0.0] * N
        for b in self.blocks:
            kept = self.bw[b] - self.bskip[b]
            if self.bw[b]:
                kw[b] += kept
                kt[b] += self.btrue[b] * kept / self.bw[b]
        for i in range(N - 1, 0, -1):
            p = self.par[i]
            if p >= 0:
                kw[p] += kw[i]
                kt[p] += kt[i]
        return kw, kt

    def f1(self, pred, tp):
        if not self.truthlen or not pred:
            return 0.0
        return 2 * tp / (pred + self.truthlen)


def relation(pg, best, ours):
    if best == ours:
        return 'same', 0
    if ours >= 0 and best in set(pg.ancestors(ours)):
        return 'wider', pg.depth[ours] - pg.depth[best]
    if ours >= 0 and ours in set(pg.ancestors(best)):
        return 'narrower', pg.depth[best] - pg.depth[ours]
    return 'apart', 0


def table(dev, out, fold=None, show=None):
    rows = defaultdict(list)
    for name, meta in pages(dev):
        if fold is not None and not in_fold(meta.get('url'), fold):
            continue
        p = os.path.join(out, name + '.jsonl')
        if not os.path.exists(p) or not os.path.getsize(p):
            continue
        rec = json.loads(open(p, encoding='utf-8').readline())
        truth = meta.get('text') or ''
        tw = Counter(words(truth))
        if not tw:
            continue
        pred = Counter(words(open(os.path.join(out, name + '.txt'),
                                  encoding='utf-8', errors='replace').read()))
        ov = sum((pred & tw).values())
        prec = ov / sum(pred.values()) if pred else 0.0
        rec_ = ov / sum(tw.values())
        wf = 2 * prec * rec_ / (prec + rec_) if prec + rec_ else 0.0
        pg = Page(rec, truth)
        T = sum(pg.btrue.values()) or 1.0
        ins = sk = near = far = 0.0
        chosen = [b for b in pg.blocks if pg.bsel[b]]
        ours = pg.lca(chosen)
        near_set = set()
        if ours >= 0:
            a = pg.par[ours] if pg.par[ours] >= 0 else ours
            a = pg.par[a] if pg.par[a] >= 0 else a
            near_set = {b for b in pg.blocks if a in set(pg.ancestors(b))}
        for b in pg.blocks:
            t = pg.btrue[b]
            if not pg.bw[b]:
                continue
            fs = pg.bsel[b] / pg.bw[b]
            fk = pg.bskip[b] / pg.bw[b]
            ins += t * fs
            sk += t * fk
            rest = t * max(0.0, 1 - fs - fk)
            if b in near_set:
                near += rest
            else:
                far += rest
        kw, kt = pg.subtree_sums()
        best = max(range(len(kw)), key=lambda i: (pg.f1(kw[i], kt[i]),
                                                   -pg.depth[i]))
        bf = pg.f1(kw[best], kt[best])
        of = pg.f1(sum(pg.bsel.values()),
                   sum(pg.btrue[b] * pg.bsel[b] / pg.bw[b]
                       for b in pg.blocks if pg.bw[b]))
        rel, dd = relation(pg, best, ours)
        truth_blocks = [b for b in pg.blocks
                        if pg.bw[b] and pg.btrue[b] / pg.bw[b] >= 0.5]
        tl = pg.lca(truth_blocks)
        r = dict(name=name, type=meta.get('page_type'), pred=pg.type,
                 p=prec, r=rec_, wf=wf, ins=ins / T, skip=sk / T,
                 near=near / T, far=far / T, bestf=bf, oursf=of, rel=rel,
                 dd=dd, dbest=pg.depth[best],
                 dours=pg.depth[ours] if ours >= 0 else -1,
                 dtruth=pg.depth[tl] if tl >= 0 else -1,
                 fallback=pg.fallback)
        rows[r['type']].append(r)
        if show and r['type'] == show:
            print('%s wf %.2f P %.2f R %.2f in %.2f skip %.2f near %.2f '
                  'far %.2f best %.2f (%s %s, d %d/%d, %s.%s) ours %.2f '
                  '(%s.%s) pred %s' % (
                      name, wf, prec, rec_, r['ins'], r['skip'], r['near'],
                      r['far'], bf, rel, dd, r['dbest'], r['dours'],
                      pg.tag[best], pg.cls[best], of,
                      pg.tag[ours] if ours >= 0 else '-',
                      pg.cls[ours] if ours >= 0 else '', pg.type))
    if show:
        return
    print('| type | pages | P | R | wF1 | truth in ours | dropped by '
          'rules | beside (2 up) | elsewhere | best subtree F1 | rules\' '
          'part F1 | same | wider | narrower | apart | type right |')
    print('|---|' + '---:|' * 15)
    order = ['article', 'forum', 'product', 'collection', 'listing',
             'documentation', 'service']
    for t in order + ['all']:
        rs = [x for k in order for x in rows[k]] if t == 'all' else rows[t]
        if not rs:
            continue
        n = len(rs)

        def m(k):
            return sum(x[k] for x in rs) / n

        def c(v):
            return sum(1 for x in rs if x['rel'] == v)
        print('| %s | %d | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.2f '
              '| %.3f | %.3f | %d | %d | %d | %d | %.2f |' % (
                  t, n, m('p'), m('r'), m('wf'), m('ins'), m('skip'),
                  m('near'), m('far'), m('bestf'), m('oursf'), c('same'),
                  c('wider'), c('narrower'), c('apart'),
                  sum(1 for x in rs if x['pred'] == x['type']) / n))


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == 'dump':
        dump(a[1], a[2], a[3])
    elif len(a) >= 3 and a[0] == 'table':
        fold = show = None
        if '--fold' in a:
            fold = int(a[a.index('--fold') + 1])
        if '--pages' in a:
            show = a[a.index('--pages') + 1]
        table(a[1], a[2], fold, show)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
