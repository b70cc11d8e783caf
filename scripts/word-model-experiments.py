#!/usr/bin/env python3
"""Compares classifiers for the word model (src/explain/words.rs) on the corpus, outside the
Rust tests: the naive Bayes it was until the fifteenth session, the linear SVM on tf-idf unit
vectors it is now, and the variants tried beside them.

    pip install scikit-learn          # numpy and scipy come with it
    python3 scripts/word-model-experiments.py folds     # ten folds, the model alone
    python3 scripts/word-model-experiments.py time      # trained on reports added before a date
                                                        # (git log), tested on those after

The features are the Rust model's (words, pairs of words, title words, pairs of CJK characters;
features of a single report dropped). It measures the model alone: the Rust tests measure the
whole explanation (signatures, keyword vote, ranking rules) with the model in ten folds.
"""
import glob, os, re, subprocess, sys, tomllib
import numpy as np
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import MultinomialNB, ComplementNB
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def word(run):
    return run.lower() if 2 <= len(run) <= 32 and run[0].isascii() and run[0].isalpha() else None


def cjk(c):
    return "\u4e00" <= c <= "\u9fff" or "\u3040" <= c <= "\u30ff" or "\uac00" <= c <= "\ud7af"


def features(text):
    out = set()
    title = next((l for l in text.splitlines() if l.strip()), "")
    out.update("t:" + w for w in map(word, re.split(r"[^A-Za-z0-9_]", title)) if w)
    previous = None
    for run in filter(None, re.split(r"[^A-Za-z0-9_]", text)):
        w = word(run)
        if w and previous:
            out.add(previous + " " + w)
        if w:
            out.add(w)
        previous = w
    out.update(a + b for a, b in zip(text, text[1:]) if cjk(a) and cjk(b))
    return out


def corpus():
    paths = sorted(glob.glob(os.path.join(ROOT, "tests/explain_corpus/*.toml")))
    cases = [tomllib.load(open(p, "rb")) for p in paths]
    return paths, [features(c["text"]) for c in cases], np.array([c["category"] for c in cases])


MODELS = {
    "naive Bayes (until session 15)": (False, lambda: MultinomialNB(alpha=0.2)),
    "complement naive Bayes": (False, lambda: ComplementNB(alpha=1.0)),
    "logistic regression, counts": (False, lambda: LogisticRegression(C=10, max_iter=2000)),
    "logistic regression, tf-idf": (True, lambda: LogisticRegression(C=10, max_iter=2000)),
    "linear SVM, counts": (False, lambda: LinearSVC(C=0.5)),
    "linear SVM, tf-idf (session 15)": (True, lambda: LinearSVC(C=0.5)),
}


def fit_predict(docs, y, train, test, tfidf, make):
    vec = CountVectorizer(analyzer=lambda s: s, min_df=2, binary=True)
    xtr = vec.fit_transform([docs[i] for i in train])
    xte = vec.transform([docs[i] for i in test])
    if tfidf:
        t = TfidfTransformer().fit(xtr)
        xtr, xte = t.transform(xtr), t.transform(xte)
    return make().fit(xtr, y[train]).predict(xte)


def folds():
    _, docs, y = corpus()
    split = list(StratifiedKFold(10, shuffle=True, random_state=0).split(docs, y))
    for name, (tfidf, make) in MODELS.items():
        right = sum((fit_predict(docs, y, tr, te, tfidf, make) == y[te]).sum() for tr, te in split)
        print(f"{name}: {right}/{len(y)}", flush=True)


def time_order():
    paths, docs, y = corpus()
    log = subprocess.run(
        ["git", "log", "--diff-filter=A", "--name-only", "--format=C %ct", "--", "tests/explain_corpus"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    added, stamp = {}, 0
    for line in log.splitlines():
        if line.startswith("C "):
            stamp = int(line[2:])
        elif line.endswith(".toml"):
            added.setdefault(os.path.basename(line), stamp)
    when = np.array([added.get(os.path.basename(p), 0) for p in paths])
    for cut in sorted(set(when))[-14::2]:
        train, test = np.where(when < cut)[0], np.where(when >= cut)[0]
        if len(test) < 100:
            continue
        nb = fit_predict(docs, y, train, test, *MODELS["naive Bayes (until session 15)"])
        svm = fit_predict(docs, y, train, test, *MODELS["linear SVM, tf-idf (session 15)"])
        print(f"trained on {len(train)}, tested on the {len(test)} added after: "
              f"naive Bayes {(nb == y[test]).sum()}, SVM {(svm == y[test]).sum()}", flush=True)


if __name__ == "__main__":
    {"folds": folds, "time": time_order}.get(sys.argv[1] if len(sys.argv) > 1 else "", lambda: sys.exit(__doc__))()
