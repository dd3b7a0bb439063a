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
    train.py backest DIR                 the back model's estimates across
                                         halves (--no-back to fit: none)
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


def labels(texts, truth, bags=None):
    """Each block's share of its words in the truth, consumed in order:
    word trigrams (unigrams for blocks under three words).  bags: the
    truth's words left by an earlier call (its fourth value), so that
    the blocks set aside are labelled by what the blocks kept left."""
    gt = WORD.findall(truth.lower())
    if bags is None:
        bags = (Counter(zip(gt, gt[1:], gt[2:])), Counter(gt))
    tri, uni = bags
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
    return out, ntok, len(gt), bags


def load(d):
    data = []
    for name, meta in pages():
        p = os.path.join(d, name + '.jsonl')
        if not os.path.exists(p) or not os.path.getsize(p):
            continue
        rec = json.loads(open(p, encoding='utf-8').readline())
        lab, ntok, ngt, bags = labels(rec['t'], meta.get('text') or '')
        # The blocks set aside by a class, a tag or a role (the back
        # model's candidates), labelled by what the kept ones left.
        clab, cntok, _, _ = labels(rec.get('ct', []),
                                   meta.get('text') or '', bags)
        data.append({'name': name, 'url': meta.get('url'),
                     'type': meta.get('page_type'), 'pf': rec['pf'],
                     'b': rec['b'], 'r': rec['r'], 'lab': lab,
                     'ntok': ntok, 'ngt': ngt, 'c': rec.get('c', []),
                     'm': rec.get('m', []), 'mr': rec.get('mr', []),
                     'clab': clab, 'cntok': cntok})
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
    # The first pass's scores and what they give, the model's own.
    rec.pop('s', None)
    rec.pop('sf', None)
    rec.pop('ms', None)
    for b in rec.get('c', []):
        b[43:50] = [0] * 7
        b[NBF + NXF:NBF + NXF + NSF] = [0] * NSF
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


NBF, NXF, NSF = 64, 8, 17  # UK_EX_NBF, UK_EX_NXF, UK_EX_NSF
FIRST = slice(0, NBF)       # the first pass reads the block's features
STK_NONE = -10.0            # lib/extract_feat.c's STK_NONE


def groups(data, page, salt, n=3):
    """Each block's group (n by domain, salted) for out-of-fold scores."""
    doms = sorted({domain(p['url']) for p in data})
    grp = {d: int(hashlib.sha256((salt + d).encode()).hexdigest(), 16) % n
           for d in doms}
    return np.array([grp[domain(p['url'])] for p in data])[page]


def oof_scores(X, y, w, pg, n=3, ests=None):
    """Out-of-fold raw scores: each group's from a model of the others
    (appended to ests, when given)."""
    oof = np.zeros(len(y))
    for g in range(n):
        est = hgb(**BLOCK_KW).fit(X[pg != g], y[pg != g],
                                  sample_weight=w[pg != g])
        oof[pg == g] = est.decision_function(X[pg == g])
        if ests is not None:
            ests.append(est)
    return oof


def add_keep(X, sc, thr):
    """The blocks kept: the rules' choice (X[:, 20], the share of the
    block they chose) and the blocks of MODEL_ADD_MIN characters at
    least (X[:, 0]) the model scores at thr; none taken away."""
    return np.maximum(X[:, 20], ((sc >= thr) & (X[:, 0] >= ADD_MIN))
                      .astype(float))


def best_threshold(data, page, X, sc, lab, ntok, what):
    best = None
    for thr in np.arange(-2, 4.01, 0.25):
        s = page_wf1(data, page, add_keep(X, sc, thr), lab, ntok)
        if best is None or s > best[1]:
            best = (float(thr), s)
    rules = page_wf1(data, page, X[:, 20], lab, ntok)
    print('%s: estimated wF1 rules %.4f, model %.4f at %.2f '
          '(out of fold)' % (what, rules, best[1], best[0]), file=sys.stderr)
    return best[0]


def export_checked(est, Z, what):
    m = trees_of(est, 1)
    chk = raw_scores(m, Z[:50])[:, 0]
    assert np.allclose(chk, est.decision_function(Z[:50]), atol=1e-9), \
        '%s export differs' % what
    return m


def fit_block(data):
    """The first pass, on the block's own features.  Its threshold: the
    best estimated wF1 over out-of-fold scores (three groups by
    domain), which the stacked model also reads as features."""
    ts = oof_types(data)
    X, y, w, page = block_matrix(data, ts)
    lab = np.array([l for p in data for l in p['lab']])
    ntok = np.array([n for p in data for n in p['ntok']], dtype=float)
    ests = []
    oof = oof_scores(X[:, FIRST], y, w, groups(data, page, 'h'), ests=ests)
    thr = best_threshold(data, page, X, oof, lab, ntok, 'block model')
    est = hgb(**BLOCK_KW).fit(X[:, FIRST], y, sample_weight=w)
    m = export_checked(est, X[:, FIRST], 'block model')
    m['threshold'] = thr
    return m, {'X': X, 'y': y, 'w': w, 'oof': oof, 'page': page,
               'lab': lab, 'ntok': ntok, 'est': est, 'ests': ests,
               'ts': ts}


def stack_features(s, r, B, thr):
    """The stacked model's features of one page's blocks from the first
    pass's scores s (stack_features in lib/extract_feat.c computes the
    same; tests/extract-model.bats compares them): r, each block's
    parent's and grandparent's blocks as [lo, hi, lo, hi); B, the
    blocks' features; thr, the first pass's threshold."""
    s = np.asarray(s, dtype=float)
    nb = len(s)
    ps = np.concatenate([[0.0], np.cumsum(s)])
    upb = s >= thr
    pa = np.concatenate([[0.0], np.cumsum(upb.astype(float))])
    chars = [float(b[0]) for b in B]
    sel = [float(round(b[20] * b[0])) for b in B]
    selm = selc = up = tot = 0.0
    for k in range(nb):
        selm += sel[k] * s[k]
        selc += sel[k]
        tot += chars[k]
        up += chars[k] if upb[k] else 0.0
    srt = np.sort(s)
    out = np.zeros((nb, NSF))

    def group(k, lo, hi, x):
        inn = lo <= k < hi
        n = hi - lo - inn
        if n <= 0:
            x[:] = [STK_NONE, STK_NONE, 0.0, 0.0]
            return
        x[0] = (ps[hi] - ps[lo] - (s[k] if inn else 0.0)) / n
        a = s[lo:k].max() if inn and k > lo else (
            s[lo:hi].max() if not inn else STK_NONE)
        b = s[k + 1:hi].max() if inn and k + 1 < hi else STK_NONE
        x[1] = max(a, b)
        x[2] = (pa[hi] - pa[lo] - (1.0 if inn and upb[k] else 0.0)) / n
        x[3] = n
    for k in range(nb):
        x = out[k]
        lo, hi = max(k - 5, 0), min(k + 6, nb)
        x[0] = s[k]
        x[1] = s[k - 2] if k >= 2 else STK_NONE
        x[2] = s[k - 1] if k >= 1 else STK_NONE
        x[3] = s[k + 1] if k + 1 < nb else STK_NONE
        x[4] = s[k + 2] if k + 2 < nb else STK_NONE
        x[5] = ((ps[hi] - ps[lo] - s[k]) / (hi - lo - 1) if hi - lo > 1
                else STK_NONE)
        group(k, r[k][0], r[k][1], x[6:10])
        group(k, r[k][2], r[k][3], x[10:14])
        x[14] = selm / selc if selc > 0 else STK_NONE
        x[15] = np.searchsorted(srt, s[k], 'left') / nb
        x[16] = up / tot if tot > 0 else 0.0
    return out


def stack_matrix(data, bm, s, thr):
    """The stacked model's input: the blocks' features and extra
    features (the dump's), then stack_features of the scores s."""
    X, page = bm['X'], bm['page']
    S = np.zeros((len(X), NSF))
    for pi, p in enumerate(data):
        m = np.nonzero(page == pi)[0]
        if len(m):
            S[m] = stack_features(s[m], p['r'], X[m], thr)
    return np.hstack([X, S])


def fit_stack(data, bm, thr1):
    """The second pass: the first pass's out-of-fold scores of the
    blocks around each block as features (stacking); its threshold
    chosen over its own out-of-fold scores (three other groups)."""
    Z = stack_matrix(data, bm, bm['oof'], thr1)
    pg = groups(data, bm['page'], 's')
    oof2 = oof_scores(Z, bm['y'], bm['w'], pg)
    thr = best_threshold(data, bm['page'], bm['X'], oof2, bm['lab'],
                         bm['ntok'], 'stacked model')
    allthr = decide_threshold(data, bm['page'], bm['X'], oof2, thr,
                              bm['lab'], bm['ntok'])
    est = hgb(**BLOCK_KW).fit(Z, bm['y'], sample_weight=bm['w'])
    m = export_checked(est, Z, 'stacked model')
    m['threshold'] = thr
    m['all_threshold'] = allthr
    return m, est, oof2


OFF = 1e9  # uk_ex_stack_all_threshold: never


def decide_keep(X, sc, thr, allthr):
    """The blocks kept when the stacked model decides every block, the
    rules' choice among them, at allthr on the pages not typed an
    article (the type scores X[:, 43:50], each less the best), and
    adds at thr elsewhere."""
    if allthr >= OFF:
        return add_keep(X, sc, thr)
    notart = X[:, 43 + ARTICLE] < 0
    return np.where(notart, (sc >= allthr).astype(float),
                    add_keep(X, sc, thr))


def decide_threshold(data, page, X, sc, thr, lab, ntok):
    """The threshold at which the stacked model decides every block of
    a page not typed an article, for the best estimated wF1 over its
    out-of-fold scores sc (OFF when adding only is best)."""
    best = (OFF, page_wf1(data, page, add_keep(X, sc, thr), lab, ntok))
    for t in np.arange(-3, 1.01, 0.25):
        v = page_wf1(data, page, decide_keep(X, sc, thr, t), lab, ntok)
        if v > best[1] + 1e-4:
            best = (float(t), v)
    print('stacked model deciding pages not typed an article: %s, '
          'estimated wF1 %.4f (out of fold)' % (
              'never' if best[0] >= OFF else 'at %.2f' % best[0], best[1]),
          file=sys.stderr)
    return best[0]



# The back model (doc/EXTRACTION.md, "The block model"): the blocks the
# rules set aside by a class, a tag or a role, each as a row of NBK
# features (lib/extract_stack.c): its block features among the blocks
# kept and set aside, the extra ones, the stack features of the first
# pass's scores of both around it, then NAF of the rule that set it
# aside and the subtree's size.
NAF = 10                    # UK_EX_NAF
NBK = NBF + NXF + NSF + NAF  # UK_EX_NBK
STK = slice(NBF + NXF, NBF + NXF + NSF)
BACK_KW = dict(max_iter=200, learning_rate=0.1, max_depth=5,
               min_samples_leaf=40, l2_regularization=1.0)
BACK_GRID = np.arange(-1, 3.01, 0.25)
BACK_MARGINS = (0.0, 1.0, 2.0, 3.0)
# The least characters of a candidate taken back (uk_ex_back_min): as
# the blocks the model adds, MODEL_ADD_MIN.  With no least length
# (chosen out of fold among 0, 20, 40 and 80), the model took back
# menus' items whose words the truth holds elsewhere ("Getting started",
# "About us"): doc/EXTRACTION.md, "Measured and not kept".
BACK_MINS = (ADD_MIN,)


def back_matrix(data, tscores, X, page):
    """The candidates' rows (type scores tscores, as the kept blocks'),
    their page, labels, word counts and weights (the page's kept words,
    as the kept blocks' weights), and where each page's merged blocks
    are: for each page, its kept rows in X and candidate rows."""
    C, cpage, clab, cntok, cw = [], [], [], [], []
    for pi, p in enumerate(data):
        tot = max(1, sum(p['ntok']))
        for bf, lab, nt in zip(p['c'], p['clab'], p['cntok']):
            bf = list(bf)
            bf[43:50] = list(tscores[pi])
            C.append(bf)
            cpage.append(pi)
            clab.append(lab)
            cntok.append(nt)
            cw.append(nt / tot)
    C = np.array(C, dtype=float).reshape(-1, NBK)
    return (C, np.array(cpage, dtype=int), np.array(clab, dtype=float),
            np.array(cntok, dtype=float), np.array(cw, dtype=float))


def back_stack(data, X, page, s, C, cpage, cs, thr):
    """The candidates' stack features (columns STK of C, in place): the
    first pass's scores s of the kept blocks X and cs of the candidates
    C, merged in document order as the dump's "m" says, read by
    stack_features as lib/extract_stack.c reads them."""
    kfirst = np.searchsorted(page, np.arange(len(data)))
    cfirst = np.searchsorted(cpage, np.arange(len(data)))
    for pi, p in enumerate(data):
        if not p['c']:
            continue
        mk = p['m']
        ms = np.array([s[kfirst[pi] + k] if k >= 0 else
                       cs[cfirst[pi] - 1 - k] for k in mk])
        B = [X[kfirst[pi] + k] if k >= 0 else C[cfirst[pi] - 1 - k]
             for k in mk]
        sf = stack_features(ms, p['mr'], B, thr)
        for m, k in enumerate(mk):
            if k < 0:
                C[cfirst[pi] - 1 - k, STK] = sf[m]


def back_keep(C, bs, bt, margin, mn):
    """The candidates taken back: mn characters at least, scored at bt,
    on a page whose article type scores margin under the best."""
    return ((C[:, 0] >= mn) & (bs >= bt) &
            (C[:, 43 + ARTICLE] < -margin)).astype(float)


def with_back(data, page, keep, lab, ntok, cpage, ckeep, clab, cntok):
    return page_wf1(data, np.concatenate([page, cpage]),
                    np.concatenate([keep, ckeep]),
                    np.concatenate([lab, clab]),
                    np.concatenate([ntok, cntok]))


def fit_back(data, bm, thr1, kept):
    """The back model, on the candidates:
    their stack features from the first pass's out-of-fold scores (the
    candidates' from the first pass's group models, as the kept
    blocks'); its threshold, type margin and least length chosen over
    its own out-of-fold scores (three groups by domain) for the best estimated
    wF1 with the kept blocks' verdict kept (1e9: never, unless taking
    back gains 0.0001).  Returns the model and the fitted estimator."""
    X, page = bm['X'], bm['page']
    C, cpage, clab, cntok, cw = back_matrix(data, bm['ts'], X, page)
    cg = groups(data, cpage, 'h')
    cs = np.zeros(len(C))
    for g, est in enumerate(bm['ests']):
        if (cg == g).any():
            cs[cg == g] = est.decision_function(C[cg == g][:, FIRST])
    back_stack(data, X, page, bm['oof'], C, cpage, cs, thr1)
    tr = C[:, 0] > 0
    y = (clab >= 0.5).astype(int)
    bs = np.full(len(C), -1e9)
    pg = groups(data, cpage, 'b')
    for g in range(3):
        a, b = tr & (pg != g), tr & (pg == g)
        if b.any():
            est = hgb(**BACK_KW).fit(C[a], y[a], sample_weight=cw[a])
            bs[b] = est.decision_function(C[b])
    base = with_back(data, page, kept, bm['lab'], bm['ntok'], cpage,
                     np.zeros(len(C)), clab, cntok)
    best = None
    for mn in BACK_MINS:
        for mg in BACK_MARGINS:
            for bt in BACK_GRID:
                v = with_back(data, page, kept, bm['lab'], bm['ntok'],
                              cpage, back_keep(C, bs, bt, mg, mn), clab,
                              cntok)
                if best is None or v > best[2]:
                    best = (float(bt), mg, v, mn)
    if best[2] <= base + 1e-4:
        best = (OFF, 0.0, base, ADD_MIN)
    print('back model: estimated wF1 %.4f without, %.4f taken back at %s, '
          'margin %g, %d characters (out of fold; %d candidates)' % (
              base, best[2], 'never' if best[0] >= OFF else '%.2f' % best[0],
              best[1], best[3], len(C)), file=sys.stderr)
    est = hgb(**BACK_KW).fit(C[tr], y[tr], sample_weight=cw[tr])
    m = export_checked(est, C[tr], 'back model')
    m['threshold'] = best[0]
    m['margin'] = best[1]
    m['min'] = best[3]
    return m, est


def kept_verdict(X, m2, sc):
    """The kept blocks' verdict as the program gives it, from stacked
    scores sc (decide_keep at the stacked model's thresholds)."""
    return decide_keep(X, sc, m2['threshold'], m2.get('all_threshold', OFF))


def estimate_back(d):
    """Across halves, from the labels: each half scored by the models
    trained on the other, today's verdict and the back model's taking
    back at thresholds and type margins; the ceilings (the labelled
    blocks kept, with and without the candidates); by type."""
    data = load(d)
    for k in (0, 1):
        tr = [p for p in data if in_fold(p['url'], k)]
        te = [p for p in data if not in_fold(p['url'], k)]
        tm = fit_type(tr)
        m1, bm = fit_block(tr)
        m2, est2, oof2 = fit_stack(tr, bm, m1['threshold'])
        mb, estb = fit_back(tr, bm, m1['threshold'],
                            kept_verdict(bm['X'], m2, oof2))
        ts = type_scores(tm, te)
        X, y, w, page = block_matrix(te, ts)
        lab = np.array([l for p in te for l in p['lab']])
        ntok = np.array([n for p in te for n in p['ntok']], dtype=float)
        s1 = bm['est'].decision_function(X[:, FIRST])
        Z = stack_matrix(te, {'X': X, 'page': page}, s1, m1['threshold'])
        kept = kept_verdict(X, m2, est2.decision_function(Z))
        C, cpage, clab, cntok, _ = back_matrix(te, ts, X, page)
        cs = bm['est'].decision_function(C[:, FIRST])
        back_stack(te, X, page, s1, C, cpage, cs, m1['threshold'])
        bs = estb.decision_function(C)

        def f(keep, ck):
            return with_back(te, page, keep, lab, ntok, cpage, ck, clab,
                             cntok)
        none = np.zeros(len(C))
        print('half %d (trained on %d): rules %.4f today %.4f; taken back '
              'at %.2f margin %g min %d: %.4f; ceilings %.4f, with the '
              'candidates %.4f' % (
                  1 - k, k, f(X[:, 20], none), f(kept, none),
                  mb['threshold'], mb['margin'], mb['min'],
                  f(kept, back_keep(C, bs, mb['threshold'], mb['margin'],
                                    mb['min'])),
                  f((lab >= 0.5).astype(float), none),
                  f((lab >= 0.5).astype(float),
                    (clab >= 0.5).astype(float))),
              flush=True)
        for mn in BACK_MINS:
            for mg in BACK_MARGINS:
                print('  min %d margin %g: ' % (mn, mg) + ' '.join(
                    '%.2f:%.4f' % (t, f(kept, back_keep(C, bs, t, mg, mn)))
                    for t in np.arange(-1, 3.01, 0.5)), flush=True)
        ck = back_keep(C, bs, mb['threshold'], mb['margin'], mb['min'])
        ty = np.array([p['type'] for p in te])
        for t in TYPES:
            sub = [p for p in te if p['type'] == t]
            pm = np.cumsum(ty == t) - 1
            bsel, csel = ty[page] == t, ty[cpage] == t
            print('  %-13s n=%-3d today %.4f taken back %.4f (%d blocks)' % (
                t, len(sub),
                with_back(sub, pm[page[bsel]], kept[bsel], lab[bsel],
                          ntok[bsel], pm[cpage[csel]], none[csel],
                          clab[csel], cntok[csel]),
                with_back(sub, pm[page[bsel]], kept[bsel], lab[bsel],
                          ntok[bsel], pm[cpage[csel]], ck[csel],
                          clab[csel], cntok[csel]), ck[csel].sum()),
                flush=True)

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
    X, oof, page, lab, ntok = (bm[k] for k in ('X', 'oof', 'page', 'lab',
                                                'ntok'))
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


def fit(d, out, fold=None, region=False, fixtures=None, stack=True,
        back=True):
    data = load(d)
    if fold is not None:
        data = [p for p in data if in_fold(p['url'], fold)]
    model = {'recipe': 'HistGradientBoosting, seed %d, %d pages of '
                       'extract-wcxb-dev%s' % (
                           SEED, len(data),
                           '' if fold is None else ', half %d/2' % fold),
             'type': fit_type(data)}
    model['block'], bm = fit_block(data)
    if stack:
        model['stack'], _, oof2 = fit_stack(data, bm,
                                            model['block']['threshold'])
        if back:
            model['back'] = fit_back(data, bm, model['block']['threshold'],
                                     kept_verdict(bm['X'], model['stack'],
                                                  oof2))[0]
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


def wauc(y, sc, w):
    """The weighted area under the ROC curve of scores sc."""
    o = np.argsort(sc, kind='stable')
    y, w = y[o], w[o]
    pos = np.cumsum(w * y)
    neg_w = w * (1 - y)
    tp = pos[-1]
    return float((neg_w * (tp - pos)).sum() / max(tp * neg_w.sum(), 1e-12))


def estimate(d):
    """Across halves, from the labels: each half scored by the models
    trained on the other (first pass, stacked), as wF1 estimates of the
    rules, the first pass's additions, the stacked model's, and the
    stacked model deciding more (dropping chosen blocks it scores
    under a margin); the weighted AUC of both passes."""
    data = load(d)
    for k in (0, 1):
        tr = [p for p in data if in_fold(p['url'], k)]
        te = [p for p in data if not in_fold(p['url'], k)]
        tm = fit_type(tr)
        m1, bm = fit_block(tr)
        m2, est2, oof2 = fit_stack(tr, bm, m1['threshold'])
        X, y, w, page = block_matrix(te, type_scores(tm, te))
        lab = np.array([l for p in te for l in p['lab']])
        ntok = np.array([n for p in te for n in p['ntok']], dtype=float)
        s1 = bm['est'].decision_function(X[:, FIRST])
        tb = {'X': X, 'page': page}
        Z = stack_matrix(te, tb, s1, m1['threshold'])
        s2 = est2.decision_function(Z)
        t1, t2 = m1['threshold'], m2['threshold']

        def f(keep):
            return page_wf1(te, page, keep, lab, ntok)
        print('half %d (trained on %d): rules %.4f first %.4f (at %.2f) '
              'stacked %.4f (at %.2f); AUC first %.4f stacked %.4f' % (
                  1 - k, k, f(X[:, 20]), f(add_keep(X, s1, t1)), t1,
                  f(add_keep(X, s2, t2)), t2, wauc(y, s1, w),
                  wauc(y, s2, w)))
        print('  stacked additions by threshold: ' + ' '.join(
            '%.2f:%.4f' % (t, f(add_keep(X, s2, t)))
            for t in np.arange(-1.5, 1.51, 0.25)))
        for dm in (-5, -4, -3, -2, -1):
            keep = add_keep(X, s2, t2)
            keep = np.where((X[:, 20] > 0) & (s2 < dm), 0, keep)
            print('  stacked, dropping chosen blocks under %d: %.4f' % (
                dm, f(keep)))
        for t in np.arange(-1.5, 2.01, 0.5):
            keep = (s2 >= t).astype(float)
            ptn = X[:, 43 + ARTICLE] < 0
            print('  stacked deciding all at %.2f: %.4f; on pages not typed '
                  'an article: %.4f' % (t, f(keep), f(np.where(
                      ptn, keep, add_keep(X, s2, t2)))))
        # Thresholds by predicted page type, chosen on the training
        # half's out-of-fold scores.
        Xtr, pgtr = bm['X'], bm['page']

        def ptype(M):
            return np.argmax(M[:, 43:50], axis=1)
        for nm, otr, ste, tdef in (('first', bm['oof'], s1, t1),
                                   ('stacked', oof2, s2, t2)):
            keep_te = add_keep(X, ste, tdef)
            chosen = []
            for ti in range(len(TYPES)):
                btr = ptype(Xtr) == ti
                best = (tdef, -1)
                for t in np.arange(-2, 4.01, 0.25):
                    kk = add_keep(Xtr, otr, tdef)
                    kk = np.where(btr, add_keep(Xtr, otr, t), kk)
                    v = page_wf1(tr, pgtr, kk, bm['lab'], bm['ntok'])
                    if v > best[1] + 1e-9:
                        best = (float(t), v)
                chosen.append(best[0])
                bte = ptype(X) == ti
                keep_te = np.where(bte, add_keep(X, ste, best[0]), keep_te)
            print('  %s, thresholds by type %s: %.4f' % (
                nm, chosen, f(keep_te)))
        ty = np.array([p['type'] for p in te])[page]
        for t in TYPES:
            sel = np.array([p['type'] == t for p in te])
            sub = [p for p in te if p['type'] == t]
            bsel = ty == t
            pmap = np.cumsum(sel) - 1
            pg2 = pmap[page[bsel]]

            def g(keep):
                return page_wf1(sub, pg2, keep[bsel], lab[bsel], ntok[bsel])
            print('  %-13s n=%-3d rules %.4f first %.4f stacked %.4f' % (
                t, len(sub), g(X[:, 20]), g(add_keep(X, s1, t1)),
                g(add_keep(X, s2, t2))))


def stackcheck(fn, model):
    """Whether stack_features here reads a dump as lib/extract_feat.c
    does: the dumped first pass's scores (s) give the dumped stack
    features (sf) at the model's first threshold."""
    thr = json.load(open(model))['block']['threshold']
    bad = 0
    for line in open(fn, encoding='utf-8'):
        rec = json.loads(line)
        got = stack_features(rec['s'], rec['r'], rec['b'], thr)
        want = np.array(rec['sf'], dtype=float)
        if got.shape != want.shape or not np.allclose(got, want,
                                                      atol=1e-9):
            bad += 1
    print('stackcheck: %s' % ('differ' if bad else 'same'))
    return 1 if bad else 0


def backcheck(fn, model):
    """Whether back_stack here reads a dump's candidates as
    lib/extract_stack.c does: the dumped first pass's scores of the
    merged blocks (ms) give the candidates' dumped stack features."""
    thr = json.load(open(model))['block']['threshold']
    bad = n = 0
    for line in open(fn, encoding='utf-8'):
        rec = json.loads(line)
        if not rec.get('c'):
            continue
        C = np.array(rec['c'], dtype=float)
        B = [rec['b'][k] if k >= 0 else C[-1 - k] for k in rec['m']]
        sf = stack_features(rec['ms'], rec['mr'], B, thr)
        for m, k in enumerate(rec['m']):
            if k < 0:
                n += 1
                bad += not np.allclose(sf[m], C[-1 - k, STK], atol=1e-9)
    print('backcheck: %d candidates, %s' % (n, 'differ' if bad else 'same'))
    return 1 if bad or not n else 0


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
        fit(sys.argv[2], sys.argv[3], fold, '--region' in sys.argv, fix,
            '--no-stack' not in sys.argv, '--no-back' not in sys.argv)
    elif cmd == 'digest':
        # digest FILE: features_digest of each line of FILE
        for line in open(sys.argv[2], encoding='utf-8'):
            print(features_digest(line))
    elif cmd == 'report':
        report(sys.argv[2])
    elif cmd == 'estimate':
        estimate(sys.argv[2])
    elif cmd == 'backcheck':
        # backcheck FILE MODEL.json
        sys.exit(backcheck(sys.argv[2], sys.argv[3]))
    elif cmd == 'backest':
        estimate_back(sys.argv[2])
    elif cmd == 'stackcheck':
        # stackcheck FILE MODEL.json
        sys.exit(stackcheck(sys.argv[2], sys.argv[3]))
    elif cmd == 'export':
        export.main()


if __name__ == '__main__':
    main()
