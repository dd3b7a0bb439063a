#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Train the extractor's models (see scripts/train-extract, doc/EXTRACTION.md).

    train.py dump URLEXTRACT DIR         features of every dev page into DIR
    train.py fit DIR OUT.json [--fold K] [--region] [--fixtures FDIR]
                                         models on all pages (or on half K);
                                         --fixtures: the digests of FDIR's
                                         dumps (features_digest) into the
                                         model;
                                         --region: with the region model
                                         (measured and not kept:
                                         doc/EXTRACTION.md)
    train.py report DIR                  page type accuracy across halves
    train.py digest FILE                 features_digest of each dumped line

Debian's python3-sklearn (HistGradientBoostingClassifier), fixed seeds.
"""
import concurrent.futures as cf
import hashlib
import json
import os

# One thread: the same sums in the same order on any machine (and no
# OpenMP threads spinning on a loaded one: four times faster here).
os.environ['OMP_NUM_THREADS'] = '1'
import re
import subprocess
import sys
from collections import Counter

import numpy as np

SEED = 1
TYPES = ['article', 'forum', 'product', 'collection', 'listing',
         'documentation', 'service']
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
SHARED = os.path.join(TOP, '..', 'shared')
if not os.path.isdir(SHARED):
    SHARED = os.path.join(TOP, '..', '..', 'shared')
DEV = os.path.join(SHARED, 'bench', 'extract-wcxb-dev')
sys.path.insert(0, HERE)
import export  # noqa: E402


def in_fold(url, k, n=2):
    """The split of ../shared/tools/evaluate-extract's --fold K/N."""
    d = re.sub(r'^www\.', '', (re.match(r'^[a-z]+://([^/:]+)', url or '')
                               or [None, ''])[1].lower())
    return int(hashlib.sha256(d.encode()).hexdigest(), 16) % n == k % n


def domain(url):
    return re.sub(r'^www\.', '', (re.match(r'^[a-z]+://([^/:]+)', url or '')
                                  or [None, ''])[1].lower())


def pages():
    out = []
    for fn in sorted(os.listdir(DEV)):
        if fn.endswith('.json'):
            meta = json.load(open(os.path.join(DEV, fn), encoding='utf-8'))
            out.append((fn[:-5], meta))
    return out


def html_of(name):
    sys.path.insert(0, os.path.join(SHARED, 'tools'))
    p = os.path.join(DEV, name + '.html')
    if os.path.exists(p):
        return p
    import importlib.machinery
    import importlib.util
    path = os.path.join(SHARED, 'tools', 'evaluate-extract')
    loader = importlib.machinery.SourceFileLoader('ev', path)
    spec = importlib.util.spec_from_loader('ev', loader)
    ev = importlib.util.module_from_spec(spec)
    loader.exec_module(ev)
    return ev.gunzip_once(p + '.gz')


def dump(binary, d):
    """Each page's features into DIR/NAME.jsonl, by urlextract BINARY (the
    program's own features: UK_EXTRACT_FEATURES).  A page the program
    fails on stops the dump (a silent gap would change the model); a
    page with no body the features can read writes nothing."""
    os.makedirs(d, exist_ok=True)
    todo = pages()

    def one(item):
        name, _ = item
        out = os.path.join(d, name + '.jsonl')
        if os.path.exists(out):
            os.unlink(out)
        env = dict(os.environ, UK_EXTRACT_FEATURES=out)
        r = subprocess.run([binary, html_of(name), '--text'],
                           env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=120)
        # 1: the page's own error record (a block page): its features
        # are written all the same.  A usage error or a crash stops.
        if r.returncode not in (0, 1):
            raise SystemExit('train.py dump: %s %s: exit %d: %s' % (
                binary, name, r.returncode, r.stderr.decode()[:200]))
        return os.path.exists(out)
    with cf.ThreadPoolExecutor(2) as ex:
        got = list(ex.map(one, todo))
    print('dump: %d pages, %d with features' % (len(got), sum(got)),
          file=sys.stderr)
    if sum(got) < len(got) // 2:
        raise SystemExit('train.py dump: features of under half the pages')


WORD = re.compile(r'\w+')


def labels(texts, truth):
    """Each block's share of its words in the truth, consumed in order:
    word trigrams (unigrams for blocks under three words)."""
    gt = WORD.findall(truth.lower())
    tri = Counter(zip(gt, gt[1:], gt[2:]))
    uni = Counter(gt)
    out, ntok = [], []
    for t in texts:
        w = WORD.findall(t.lower())
        ntok.append(len(w))
        if not w:
            out.append(0.0)
            continue
        if len(w) >= 3:
            grams, bag = list(zip(w, w[1:], w[2:])), tri
        else:
            grams, bag = w, uni
        hit = 0
        for g in grams:
            if bag[g] > 0:
                bag[g] -= 1
                hit += 1
        out.append(hit / len(grams))
    return out, ntok, len(gt)


def load(d):
    data = []
    for name, meta in pages():
        p = os.path.join(d, name + '.jsonl')
        if not os.path.exists(p) or not os.path.getsize(p):
            continue
        rec = json.loads(open(p, encoding='utf-8').readline())
        lab, ntok, ngt = labels(rec['t'], meta.get('text') or '')
        data.append({'name': name, 'url': meta.get('url'),
                     'type': meta.get('page_type'), 'pf': rec['pf'],
                     'b': rec['b'], 'lab': lab, 'ntok': ntok, 'ngt': ngt})
    return data


def features_digest(line):
    """The digest of one dumped line (a page's features and its blocks'
    text) less what the models themselves put in it (the page type's
    scores, block features 43..49), so that a model's digests of the
    fixture pages say which features it was trained on, and
    tests/extract-model.bats sees when they drift from the program's."""
    rec = json.loads(line)
    for b in rec['b']:
        b[43:50] = [0] * 7
    s = json.dumps(rec, separators=(',', ':'), sort_keys=True)
    return hashlib.sha256(s.encode()).hexdigest()


def fixture_digests(fdir):
    out = {}
    for fn in sorted(os.listdir(fdir)):
        if fn.endswith('.jsonl'):
            with open(os.path.join(fdir, fn), encoding='utf-8') as f:
                out[fn[:-6]] = features_digest(f.readline())
    return out


def hgb(**kw):
    from sklearn.ensemble import HistGradientBoostingClassifier
    return HistGradientBoostingClassifier(random_state=SEED, **kw)


def trees_of(est, nclass):
    """The fitted trees as [[class, [[feat, thr, left, right, value]]]]."""
    trees = []
    for it in est._predictors:
        for k, pred in enumerate(it):
            nodes = []
            for nd in pred.nodes:
                if nd['is_leaf']:
                    nodes.append([-1, 0.0, 0, 0, float(nd['value'])])
                else:
                    nodes.append([int(nd['feature_idx']),
                                  float(nd['num_threshold']),
                                  int(nd['left']), int(nd['right']), 0.0])
            trees.append([k, nodes])
    base = [float(v) for v in np.ravel(est._baseline_prediction)]
    return {'nclass': nclass, 'base': base, 'trees': trees}


def raw_scores(m, X):
    """The exporter's reading of model m (as the C code reads it)."""
    out = np.tile(np.array(m['base']), (len(X), 1))
    for k, nodes in m['trees']:
        for r, x in enumerate(X):
            i = 0
            while nodes[i][0] >= 0:
                f, thr, l, rr, _ = nodes[i]
                i = l if x[f] <= thr else rr
            out[r, k] += nodes[i][4]
    return out


ADD_MIN = 80  # MODEL_ADD_MIN of lib/extract_feat.c
TYPE_KW = dict(max_iter=150, learning_rate=0.1, max_depth=4,
               min_samples_leaf=10, l2_regularization=1.0)
BLOCK_KW = dict(max_iter=200, learning_rate=0.1, max_depth=6,
                min_samples_leaf=40, l2_regularization=1.0)


def fit_type(data):
    X = np.array([p['pf'] for p in data])
    y = np.array([TYPES.index(p['type']) for p in data])
    est = hgb(**TYPE_KW).fit(X, y)
    m = trees_of(est, len(TYPES))
    chk = raw_scores(m, X[:20])
    ref = est._raw_predict(X[:20])
    ref = ref.T if ref.shape[0] != 20 else ref
    assert np.allclose(chk, ref, atol=1e-9), 'type model export differs'
    return m


def type_scores(m, data):
    """The block features' page type scores: each class less the best."""
    X = np.array([p['pf'] for p in data])
    r = raw_scores(m, X)
    return r - r.max(axis=1, keepdims=True)


def oof_types(data, nsplit=4):
    """Page type scores for each page from a model that did not see its
    domain (grouped folds inside data), as the blocks of unseen pages
    will get them."""
    doms = sorted({domain(p['url']) for p in data})
    grp = {d: int(hashlib.sha256(('g' + d).encode()).hexdigest(), 16) % nsplit
           for d in doms}
    out = [None] * len(data)
    for g in range(nsplit):
        tr = [p for p in data if grp[domain(p['url'])] != g]
        te = [i for i, p in enumerate(data) if grp[domain(p['url'])] == g]
        m = fit_type(tr)
        s = type_scores(m, [data[i] for i in te])
        for j, i in enumerate(te):
            out[i] = s[j]
    return out


def block_matrix(data, tscores):
    X, y, w, page = [], [], [], []
    for pi, p in enumerate(data):
        for bf, lab, nt in zip(p['b'], p['lab'], p['ntok']):
            bf = list(bf)
            bf[43:50] = list(tscores[pi])
            X.append(bf)
            y.append(1 if lab >= 0.5 else 0)
            w.append(nt / max(1, sum(p['ntok'])))
            page.append(pi)
    return np.array(X), np.array(y), np.array(w), np.array(page)


def page_wf1(data, page, keep, lab, ntok):
    """Each page's word F1 when the blocks keep are kept, from the labels
    (an estimate of evaluate-extract's wF1)."""
    tp = np.zeros(len(data))
    pr = np.zeros(len(data))
    np.add.at(tp, page, keep * lab * ntok)
    np.add.at(pr, page, keep * ntok)
    gt = np.array([max(1, p['ngt']) for p in data])
    P = np.where(pr > 0, tp / np.maximum(pr, 1), 0)
    R = tp / gt
    return np.where(P + R > 0, 2 * P * R / np.maximum(P + R, 1e-9), 0).mean()


def fit_block(data):
    ts = oof_types(data)
    X, y, w, page = block_matrix(data, ts)
    lab = np.array([l for p in data for l in p['lab']])
    ntok = np.array([n for p in data for n in p['ntok']], dtype=float)
    # The threshold: the best estimated wF1 over out-of-fold scores.
    doms = sorted({domain(p['url']) for p in data})
    grp = {d: int(hashlib.sha256(('h' + d).encode()).hexdigest(), 16) % 3
           for d in doms}
    pg = np.array([grp[domain(p['url'])] for p in data])[page]
    oof = np.zeros(len(y))
    for g in range(3):
        est = hgb(**BLOCK_KW).fit(X[pg != g], y[pg != g],
                                  sample_weight=w[pg != g])
        oof[pg == g] = est.decision_function(X[pg == g])
    best = None
    for thr in np.arange(-2, 4.01, 0.25):
        # The model adds blocks to the rules' choice (X[:, 20], the
        # share of the block they chose) and takes none away.
        # (of MODEL_ADD_MIN characters at least: X[:, 0], lib/extract_feat.c)
        keep = np.maximum(X[:, 20], ((oof >= thr) & (X[:, 0] >= ADD_MIN))
                          .astype(float))
        s = page_wf1(data, page, keep, lab, ntok)
        if best is None or s > best[1]:
            best = (float(thr), s)
    rules = page_wf1(data, page, X[:, 20], lab, ntok)
    print('block model: estimated wF1 rules %.3f, model %.3f at %.2f '
          '(out of fold)' % (rules, best[1], best[0]), file=sys.stderr)
    est = hgb(**BLOCK_KW).fit(X, y, sample_weight=w)
    m = trees_of(est, 1)
    chk = raw_scores(m, X[:50])[:, 0]
    assert np.allclose(chk, est.decision_function(X[:50]), atol=1e-9), \
        'block model export differs'
    m['threshold'] = best[0]
    return m, (X, oof, page, lab, ntok)


def region_features(pf, B, sc, thr):
    """The region model's features of a page (region_features in
    lib/extract_feat.c computes the same): the page's, then what the
    rules' choice with the block model's additions (cur) holds against
    the rest of the body less its boilerplate, then the page type's
    scores.  B: the page's block features, sc: their block scores."""
    ch, ld = B[:, 0], B[:, 1]
    k = np.maximum(B[:, 20], ((sc >= thr) & (ch >= ADD_MIN)).astype(float))
    tot = ch.sum()
    sel = (k * ch).sum()
    rest = tot - sel
    up = (sc >= thr).astype(float)
    idx = np.nonzero(k)[0]

    def dens(m):
        return (m * ch * ld).sum() / max(1.0, (m * ch).sum())
    g = [sel / max(1.0, tot), dens(k), dens(1 - k), rest, float(len(B)),
         (up * (1 - k) * ch).sum() / max(1.0, rest),
         ((1 - k) * ch * sc).sum() / max(1.0, rest),
         B[idx[0], 19] if len(idx) else 1.0,
         B[idx[-1], 19] if len(idx) else 1.0,
         (k * B[:, 33]).sum() / max(1.0, k.sum()),
         B[idx[0], 35] if len(idx) else 0.0,
         (k * B[:, 36] * ch).sum() / max(1.0, sel)]
    return list(pf) + g + list(B[0, 43:50]), k


REGION_KW = dict(max_iter=100, learning_rate=0.05, max_depth=3,
                 min_samples_leaf=20, l2_regularization=1.0)
ARTICLE = TYPES.index('article')


def fit_region(data, bm, thr):
    """The second opinion: whether the body less its boilerplate beats
    the rules' choice (with the block model's additions) on a page the
    type model does not call an article.  Trained on each page's gain in
    estimated word F1 (the sign, weighted by its size), from out-of-fold
    block scores; the margin over 0 chosen on out-of-fold region scores
    (three groups by domain) for the best estimated wF1."""
    X, oof, page, lab, ntok = bm
    R, gain, cur, art = [], [], [], []
    for pi, p in enumerate(data):
        m = page == pi
        B = X[m]
        f, k = region_features(p['pf'], B, oof[m], thr)
        gt = max(1, p['ngt'])

        def pf1(keep):
            tp = (keep * lab[m] * ntok[m]).sum()
            pr = (keep * ntok[m]).sum()
            if not tp or not pr:
                return 0.0
            P, Rc = tp / pr, tp / gt
            return 2 * P * Rc / (P + Rc)
        c = pf1(k)
        R.append(f)
        gain.append(pf1(np.ones(len(B))) - c)
        cur.append(c)
        art.append(np.argmax(B[0, 43:50]) == ARTICLE)
    R, gain, cur, art = (np.array(R), np.array(gain), np.array(cur),
                         np.array(art))
    y = (gain > 0).astype(int)
    w = np.abs(gain) + 1e-4
    doms = sorted({domain(p['url']) for p in data})
    grp = {d: int(hashlib.sha256(('r' + d).encode()).hexdigest(), 16) % 3
           for d in doms}
    pg = np.array([grp[domain(p['url'])] for p in data])
    rs = np.zeros(len(y))
    for g in range(3):
        est = hgb(**REGION_KW).fit(R[pg != g], y[pg != g],
                                   sample_weight=w[pg != g])
        rs[pg == g] = est.decision_function(R[pg == g])
    best = None
    for mg in (0.0, 0.25, 0.5, 1.0, 1e9):
        s = (cur + np.where((rs > mg) & ~art, gain, 0)).mean()
        if best is None or s > best[1]:
            best = (mg, s)
    print('region model: estimated wF1 %.4f without, %.4f at margin %g '
          '(out of fold)' % (cur.mean(), best[1], best[0]), file=sys.stderr)
    est = hgb(**REGION_KW).fit(R, y, sample_weight=w)
    m = trees_of(est, 1)
    chk = raw_scores(m, R[:50])[:, 0]
    assert np.allclose(chk, est.decision_function(R[:50]), atol=1e-9), \
        'region model export differs'
    m['threshold'] = best[0]
    return m


def fit(d, out, fold=None, region=False, fixtures=None):
    data = load(d)
    if fold is not None:
        data = [p for p in data if in_fold(p['url'], fold)]
    model = {'recipe': 'HistGradientBoosting, seed %d, %d pages of '
                       'extract-wcxb-dev%s' % (
                           SEED, len(data),
                           '' if fold is None else ', half %d/2' % fold),
             'type': fit_type(data)}
    model['block'], bm = fit_block(data)
    if region:
        model['region'] = fit_region(data, bm, model['block']['threshold'])
    if fixtures:
        model['features_digest'] = fixture_digests(fixtures)
    with open(out, 'w') as f:
        json.dump(model, f, separators=(',', ':'))
        f.write('\n')


def report(d):
    data = load(d)
    for k in (0, 1):
        tr = [p for p in data if in_fold(p['url'], k)]
        te = [p for p in data if not in_fold(p['url'], k)]
        m = fit_type(tr)
        s = type_scores(m, te)
        pred = s.argmax(axis=1)
        y = np.array([TYPES.index(p['type']) for p in te])
        acc = (pred == y).mean()
        print('page type: trained on half %d, tested on half %d: accuracy '
              '%.3f (%d pages)' % (k, 1 - k, acc, len(te)))
        for t in range(len(TYPES)):
            sel = y == t
            print('  %-14s n=%-4d recall %.3f' % (TYPES[t], sel.sum(),
                                                 (pred[sel] == t).mean()))


def main():
    cmd = sys.argv[1]
    if cmd == 'dump':
        dump(sys.argv[2], sys.argv[3])
    elif cmd == 'fit':
        fold = None
        if '--fold' in sys.argv:
            fold = int(sys.argv[sys.argv.index('--fold') + 1])
        fix = None
        if '--fixtures' in sys.argv:
            fix = sys.argv[sys.argv.index('--fixtures') + 1]
        fit(sys.argv[2], sys.argv[3], fold, '--region' in sys.argv, fix)
    elif cmd == 'digest':
        # digest FILE: features_digest of each line of FILE
        for line in open(sys.argv[2], encoding='utf-8'):
            print(features_digest(line))
    elif cmd == 'report':
        report(sys.argv[2])
    elif cmd == 'export':
        export.main()


if __name__ == '__main__':
    main()
