#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The token model (lib/extract_tok.c, doc/EXTRACTION.md "The token model").

    tokens.py measure DIR [--half K] [--no-tok]
                                   the block model's estimate across halves
                                   with the token model's out-of-fold score
                                   as a feature, and without (--no-tok)
    tokens.py fit DIR OUT.json [--fold K]
                                   the token model on every page of DIR
                                   (or on half K)
    tokens.py export MODEL.json OUT.c
                                   the C table (lib/extract_tokmodel.c)
    tokens.py dumpcheck FILE MODEL.json COLUMN
                                   whether the scores of a features dump's
                                   blocks here are the program's (block
                                   feature COLUMN)
    tokens.py check INPUTS.json    each fixture block's slots and score by
                                   the committed table, as
                                   tests/unit/t_extract_tok.c prints them

DIR: train.py's features dump (train.py dump), whose "k" holds each
block's inputs as lib/extract_tok.c reads them: its text, the tags of it,
its parent and grandparent, the "class id" of it and its three nearest
ancestors.  The tokens and the hash are lib/extract_tok.h's, made the
same way here.  Deterministic: liblinear with a fixed seed, one thread.
"""
import hashlib
import json
import math
import os
import re
import sys

os.environ['OMP_NUM_THREADS'] = '1'

BITS = 17          # UK_EX_TOK_BITS
SLOTS = 1 << BITS
MAXW = 128         # UK_EX_TOK_MAXW
WLEN = 32          # UK_EX_TOK_WLEN
MAXP = 16          # UK_EX_TOK_MAXP
LEVELS = 4         # UK_EX_TOK_LEVELS
TAGS = 3           # UK_EX_TOK_TAGS
PARTLEN = 64       # the bytes of a class part hashed (extract_tok.c)
PERLINE = 128      # weights a line of the table (scripts/sizes: 1500 lines)
SEED = 1
C_REG = 1.0        # liblinear's C (L2)
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

FNV0 = 2166136261
FNVP = 16777619
_cache = {}


def fnv(data, h=FNV0):
    """32-bit FNV-1a of bytes data, continued from h."""
    for ch in data:
        h = ((h ^ ch) * FNVP) & 0xffffffff
    return h


def slot(token):
    """The slot of token (bytes: its prefix and its text)."""
    s = _cache.get(token)
    if s is None:
        s = _cache[token] = fnv(token) & (SLOTS - 1)
    return s


SEP = re.compile(rb'\xc2\xa0|\xe2\x80[\x80-\xbf]|[\x00-\x2f\x3a-\x40'
                 rb'\x5b-\x60\x7b-\x7f]')
DIGITS = bytes.maketrans(b'0123456789', b'0000000000')
RUN = re.compile(rb'[A-Za-z0-9\x80-\xff]+')
CAMEL = re.compile(rb'(?<=[a-z0-9])(?=[A-Z])')


def text_tokens(text):
    """The words' and pairs' tokens of text (bytes), and the words."""
    out = []
    words = SEP.sub(b' ', text).split()[:MAXW]
    prev = None
    for w in words:
        w = w.lower().translate(DIGITS)[:WLEN]
        out.append((slot(b'w:' + w), 1))
        if prev is not None:
            out.append((slot(b'b:' + prev + b' ' + w), 1))
        prev = w
    return out, len(words)


def class_tokens(ci, lvl):
    out = []
    pre = b'c%d:' % lvl
    for run in RUN.findall(ci):
        for part in CAMEL.split(run):
            if len(out) >= MAXP:
                return out
            if len(part) < 2 or part.isdigit():
                continue
            out.append((slot(pre + part.lower()[:PARTLEN]), 0))
    return out


def tokens(inp):
    """The tokens of one block's inputs [text, tag0, tag1, tag2, ci0..ci3]
    as (slot, text) pairs, and the count of its words."""
    out, n = text_tokens(inp[0].encode())
    for lvl in range(LEVELS):
        ci = inp[1 + TAGS + lvl]
        if ci is not None:
            out += class_tokens(ci.encode(), lvl)
    path = b''
    for k, pre in enumerate((b't:', b'u:', b'v:')):
        t = inp[1 + k]
        if t is None:
            break
        t = t.encode()
        if len(path) + len(t) + 1 >= 64:
            break
        path = path + b'<' + t if k else t
        out.append((slot(pre + path), 0))
    return out, n


def block_row(inp):
    """One block's features: {slot: value}, the class and tag tokens 1,
    the text's 1/sqrt(words) (its length does not weigh)."""
    toks, n = tokens(inp)
    v = 1.0 / math.sqrt(n) if n else 0.0
    row = {}
    for s, t in toks:
        row[s] = row.get(s, 0.0) + (v if t else 1.0)
    return row


def matrix(rows):
    import numpy as np
    from scipy.sparse import csr_matrix
    ind, val, ptr = [], [], [0]
    for r in rows:
        for s in sorted(r):
            ind.append(s)
            val.append(r[s])
        ptr.append(len(ind))
    return csr_matrix((np.array(val), np.array(ind, dtype=np.int64),
                       np.array(ptr, dtype=np.int64)), shape=(len(rows),
                                                             SLOTS))


def fit_lr(M, y, w):
    from sklearn.linear_model import LogisticRegression
    lr = LogisticRegression(solver='liblinear', C=C_REG, random_state=SEED,
                            max_iter=200)
    lr.fit(M, y, sample_weight=w)
    return lr


def score(m, inp):
    """The raw score of the committed (quantised) model m of one block:
    the operations and order of uk_ex_tok_eval."""
    toks, n = tokens(inp)
    wq = m['w']
    c = sum(wq[s] for s, t in toks if not t)
    tt = sum(wq[s] for s, t in toks if t)
    v = float(c)
    if n > 0:
        v += float(tt) / math.sqrt(n)
    return m['bias'] + m['scale'] * v


def load(d):
    """train.py's pages, each with its blocks' token rows."""
    sys.path.insert(0, HERE)
    import train
    data = train.load(d)
    for p in data:
        with open(os.path.join(d, p['name'] + '.jsonl'),
                  encoding='utf-8') as f:
            rec = json.loads(f.readline())
        p['rows'] = [block_row(k) for k in rec['k']]
    return data


def page_groups(train, data, salt='h', n=3):
    doms = sorted({train.domain(p['url']) for p in data})
    grp = {dm: int(hashlib.sha256((salt + dm).encode()).hexdigest(), 16) % n
           for dm in doms}
    return [grp[train.domain(p['url'])] for p in data]


def labels(data):
    import numpy as np
    y, w = [], []
    for p in data:
        tot = max(1, sum(p['ntok']))
        for lab, nt in zip(p['lab'], p['ntok']):
            y.append(1 if lab >= 0.5 else 0)
            w.append(nt / tot)
    return np.array(y), np.array(w)


def oof_tok(train, data, n=3):
    """Out-of-fold token scores of data's blocks (groups by domain, as
    train.py's first pass's), and the model of all of data."""
    import numpy as np
    rows = [r for p in data for r in p['rows']]
    M = matrix(rows)
    y, w = labels(data)
    pg = np.repeat(page_groups(train, data), [len(p['rows']) for p in data])
    oof = np.zeros(len(y))
    for g in range(n):
        lr = fit_lr(M[pg != g], y[pg != g], w[pg != g])
        oof[pg == g] = lr.decision_function(M[pg == g])
    return oof, fit_lr(M, y, w), (M, y, w)


def set_tok(data, sc):
    k = 0
    for p in data:
        p['tok'] = list(sc[k:k + len(p['rows'])])
        k += len(p['rows'])


def measure(d, halves, use_tok):
    """train.py estimate's figures, each half scored by the models
    trained on the other, with the token column (use_tok) or without:
    with main's train.py, the column is put in; with one that has it
    (train.TOK), a column of zeros stands for none."""
    import numpy as np
    sys.path.insert(0, HERE)
    import train
    col = train.NBF
    orig = train.block_matrix
    has = hasattr(train, 'TOK')

    def with_tok(data, ts):
        X, y, w, page = orig(data, ts)
        if use_tok:
            c = np.array([s for p in data for s in p['tok']])
            X = np.insert(X, col, c, axis=1)
        return X, y, w, page
    if not has:
        train.block_matrix = with_tok
        if use_tok:
            train.FIRST = slice(0, col + 1)
    data = load(d)
    for k in halves:
        tr = [p for p in data if train.in_fold(p['url'], k)]
        te = [p for p in data if not train.in_fold(p['url'], k)]
        if use_tok:
            oof, lr, _ = oof_tok(train, tr)
            set_tok(tr, oof)
            Mte = matrix([r for p in te for r in p['rows']])
            ste = lr.decision_function(Mte)
            set_tok(te, ste)
            yte, wte = labels(te)
            print('half %d: token model alone, AUC %.4f (out of fold on '
                  'half %d: %.4f)' % (1 - k, train.wauc(yte, ste, wte), k,
                                      train.wauc(labels(tr)[0], oof,
                                                 labels(tr)[1])))
        elif has:
            for p in data:
                p['tok'] = [0.0] * len(p['rows'])
        tm = train.fit_type(tr)
        m1, bm = train.fit_block(tr)
        m2, est2, oof2 = train.fit_stack(tr, bm, m1['threshold'])
        X, y, w, page = train.block_matrix(te, train.type_scores(tm, te))
        lab = np.array([v for p in te for v in p['lab']])
        ntok = np.array([v for p in te for v in p['ntok']], dtype=float)
        s1 = bm['est'].decision_function(X[:, train.FIRST])
        Z = train.stack_matrix(te, {'X': X, 'page': page}, s1,
                               m1['threshold'])
        s2 = est2.decision_function(Z)
        t1, t2, ta = m1['threshold'], m2['threshold'], m2['all_threshold']

        def f(keep):
            return train.page_wf1(te, page, keep, lab, ntok)
        print('half %d (trained on %d)%s: rules %.4f first %.4f (at %.2f) '
              'stacked %.4f (at %.2f) deciding %.4f (at %s); AUC first '
              '%.4f stacked %.4f' % (
                  1 - k, k, ' with tokens' if use_tok else '',
                  f(X[:, 20]), f(train.add_keep(X, s1, t1)), t1,
                  f(train.add_keep(X, s2, t2)), t2,
                  f(train.decide_keep(X, s2, t2, ta)), ta,
                  train.wauc(y, s1, w), train.wauc(y, s2, w)), flush=True)


def fit(d, out, fold=None):
    sys.path.insert(0, HERE)
    import train
    data = load(d)
    if fold is not None:
        data = [p for p in data if train.in_fold(p['url'], fold)]
    rows = [r for p in data for r in p['rows']]
    y, w = labels(data)
    lr = fit_lr(matrix(rows), y, w)
    # Six significant digits: the table's int16 steps are coarser.
    coef = [float('%.6g' % v) for v in lr.coef_[0]]
    with open(out, 'w') as f:
        json.dump({'recipe': 'liblinear L2, C %g, seed %d, %d pages of '
                   'extract-wcxb-dev%s, %d slots' % (
                       C_REG, SEED, len(data),
                       '' if fold is None else ', half %d/2' % fold, SLOTS),
                   'bias': float('%.6g' % lr.intercept_[0]),
                   'coef': coef}, f,
                  separators=(',', ':'))
        f.write('\n')


def quantise(model):
    """The table: each weight as an int16 times one scale."""
    coef = model['coef']
    top = max(abs(v) for v in coef) or 1.0
    scale = top / 32767.0
    return {'bias': model['bias'], 'scale': scale,
            'w': [int(round(v / scale)) for v in coef]}


def export(model_fn, out_fn):
    m = quantise(json.load(open(model_fn)))
    lines = ['/* SPDX-License-Identifier: MIT */',
             '/*',
             ' * GENERATED by scripts/train-extract.d/tokens.py export from',
             ' * scripts/train-extract.d/tokmodel.json: do not edit.  The '
             'token',
             ' * model\'s weights (lib/extract_tok.h), int16 times the scale.',
             ' */',
             '#include <stddef.h>',
             '#include <stdint.h>',
             '',
             '#include "buf.h"',
             '#include "extract_tok.h"',
             '',
             'static const int16_t w[%d] = {' % SLOTS]
    row = []
    for i, v in enumerate(m['w']):
        row.append('%d,' % v)
        if len(row) == PERLINE or i == SLOTS - 1:
            lines.append('\t' + ' '.join(row))
            row = []
    lines += ['};', '',
              'const struct uk_ex_tokmodel uk_ex_tok_model = {',
              '\t%r, %r, w' % (m['bias'], m['scale']),
              '};', '']
    with open(out_fn, 'w') as f:
        f.write('\n'.join(lines))


def check(inputs_fn, model_fn):
    """Each block of INPUTS (a JSON array of inputs): its slots in order
    and its score by the quantised model, one line a block, as
    tests/unit/t_extract_tok.c prints them."""
    m = quantise(json.load(open(model_fn))) if model_fn else None
    for inp in json.load(open(inputs_fn, encoding='utf-8')):
        toks, n = tokens(inp)
        print('%d %s %.9f' % (n, ' '.join('%d%s' % (s, 't' if t else 'c')
                                           for s, t in toks),
                              score(m, inp) if m else 0.0))


def dumpcheck(fn, model_fn, col):
    """Whether the scores of the dumped blocks' inputs ("k") here are
    the program's (block feature col of "b"), within 1e-6."""
    m = quantise(json.load(open(model_fn)))
    bad = n = 0
    for line in open(fn, encoding='utf-8'):
        rec = json.loads(line)
        for inp, b in zip(rec['k'], rec['b']):
            n += 1
            if abs(score(m, inp) - b[col]) > 1e-6:
                bad += 1
    print('dumpcheck: %d blocks, %s' % (n, 'differ' if bad or not n
                                         else 'same'))
    return 1 if bad or not n else 0


def main():
    cmd = sys.argv[1]
    if cmd == 'measure':
        halves = (0, 1)
        if '--half' in sys.argv:
            halves = (int(sys.argv[sys.argv.index('--half') + 1]),)
        measure(sys.argv[2], halves, '--no-tok' not in sys.argv)
    elif cmd == 'fit':
        fold = None
        if '--fold' in sys.argv:
            fold = int(sys.argv[sys.argv.index('--fold') + 1])
        fit(sys.argv[2], sys.argv[3], fold)
    elif cmd == 'export':
        export(sys.argv[2], sys.argv[3])
    elif cmd == 'check':
        model = os.path.join(HERE, 'tokmodel.json')
        if len(sys.argv) > 3:
            model = sys.argv[3]
        if not os.path.exists(model):
            model = None    # no model: every score 0, as in C
        check(sys.argv[2], model)
    elif cmd == 'dumpcheck':
        # dumpcheck FILE MODEL.json COLUMN
        sys.exit(dumpcheck(sys.argv[2], sys.argv[3], int(sys.argv[4])))
    else:
        raise SystemExit('tokens.py: unknown command %s' % cmd)


if __name__ == '__main__':
    main()
