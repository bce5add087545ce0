""""For you" benchmark: how well the model finds a simulated user's interest.

    python -m benchmarks.bench_for_you --data /work/shared/data/iclr2026-reviews.jsonl.gz

A user interested in one primary area (the reviews data gives every paper its area)
triages 80 random papers, keeping (to-read) those of the area and skipping the others,
then finds 5 more of the area by search. "For you" then ranks every paper not decided
on; the figure is precision@50 (the share of the first 50 in the area), against the
area's base rate and against the plain recipe: a TF-IDF of title and abstract
(scikit-learn's TfidfVectorizer) and a linear SVM on the 85 decisions alone. Each area
is run with several random users (seeds 100 on: the settings were tuned on 0-2); the
mean is reported. The area itself is
never a feature: the model sees the texts and the decisions only.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence

AREAS = {
    "interpretability": "interpretability and explainable AI",
    "reinforcement learning": "reinforcement learning",
    "learning theory": "learning theory",
    "causal reasoning": "causal reasoning",
    "optimization": "optimization",
}
TRIAGED, FOUND, K = 80, 5, 50


def simulate(views: Sequence, area: str, seed: int) -> dict[str, object]:
    """The decisions of a user interested in `area`: id -> Status."""
    from reader_tui.core.model import Status

    rng = random.Random(seed)
    decided = {}
    for view in rng.sample(list(views), TRIAGED):
        decided[view.id] = Status.TO_READ if view.paper.area == area else Status.SKIPPED
    more = [v for v in views if v.paper.area == area and v.id not in decided]
    for view in rng.sample(more, FOUND):
        decided[view.id] = Status.TO_READ
    return decided


def baseline(views: Sequence, decided: dict, k: int = K) -> list[str]:
    """Plain TF-IDF of title + abstract and a linear SVM on the decisions alone."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.svm import LinearSVC

    from reader_tui.core.model import Status

    texts = [f"{v.title} {v.abstract}" for v in views]
    matrix = TfidfVectorizer(stop_words="english", min_df=2, max_df=0.25, sublinear_tf=True).fit_transform(texts)
    rows = [i for i, v in enumerate(views) if v.id in decided]
    y = [int(decided[views[i].id] != Status.SKIPPED) for i in rows]
    svm = LinearSVC(C=0.1, class_weight="balanced").fit(matrix[rows], y)
    score = svm.decision_function(matrix)
    order = sorted((i for i, v in enumerate(views) if v.id not in decided), key=lambda i: -score[i])
    return [views[i].id for i in order[:k]]


def run(views: Sequence, seeds: int = 3, with_baseline: bool = True, first_seed: int = 100) -> dict:
    """Precision@50 of "for you" (and of the baseline) per area, mean over `seeds` users,
    with the base rate, feature and training times. The model's settings were chosen on
    seeds 0-2; the figures are from other users (seeds from `first_seed` on)."""
    from reader_tui.core.model import Annotation, PaperView
    from reader_tui.core.related import for_you
    from reader_tui.core.search.index import SearchIndex

    views = list(views)
    area_of = {v.id: v.paper.area for v in views}
    index = SearchIndex.build(views)
    start = time.perf_counter()
    features = for_you.Features(index)
    features_s = time.perf_counter() - start
    rows, trains = {}, []
    for name, area in AREAS.items():
        ours, plain = [], []
        for seed in range(first_seed, first_seed + seeds):
            decided = simulate(views, area, seed)
            annotated = [PaperView(v.paper, Annotation(status=decided[v.id])) if v.id in decided else v
                         for v in views]
            start = time.perf_counter()
            model = for_you.train(features, annotated)
            trains.append(time.perf_counter() - start)
            top = [pid for pid, _ in model.rank()[:K]]
            ours.append(sum(area_of[pid] == area for pid in top) / K)
            if with_baseline:
                plain.append(sum(area_of[pid] == area for pid in baseline(views, decided)) / K)
        rows[name] = {
            "base_rate": round(sum(a == area for a in area_of.values()) / len(views), 3),
            "baseline": round(statistics.mean(plain), 3) if plain else None,
            "for_you": round(statistics.mean(ours), 3),
        }
    return {
        "papers": len(views), "seeds": seeds, "areas": rows,
        "mean_for_you": round(statistics.mean(r["for_you"] for r in rows.values()), 3),
        "mean_baseline": round(statistics.mean(r["baseline"] for r in rows.values()), 3) if with_baseline else None,
        "features_s": round(features_s, 3),
        "train_p50_s": round(statistics.median(trains), 3), "train_max_s": round(max(trains), 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="a list with primary areas (the reviews data)")
    parser.add_argument("--seeds", type=int, default=5, help="simulated users per area")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from .synthetic import load_views

    result = run(load_views(args.data), args.seeds, not args.no_baseline)
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(f"{'area':<24}{'base rate':>10}{'baseline':>10}{'for you':>10}")
    for name, row in result["areas"].items():
        print(f"{name:<24}{row['base_rate']:>10.3f}{row['baseline'] or 0:>10.3f}{row['for_you']:>10.3f}")
    print(f"{'mean':<24}{'':>10}{result['mean_baseline'] or 0:>10.3f}{result['mean_for_you']:>10.3f}")
    print(f"features {result['features_s']} s, training p50 {result['train_p50_s']} s (max {result['train_max_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
