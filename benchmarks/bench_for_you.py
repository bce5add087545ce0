""""For you" benchmark: how well the model finds a simulated user's interest, beside the recipe.

    python -m benchmarks.bench_for_you --data /work/shared/data/iclr2026-reviews.jsonl.gz

The protocol. For every ICLR 2026 primary area but "other topics" (20 areas; the reviews
data gives every paper its area), a simulated user interested in that area meets the
list in a shuffled order and decides on the first 80 papers (to-read for those of the
area, skipped for the others), then finds 5 more of the area by search. Each area is run
with two shuffles (seeds 100 and 101; the settings were chosen on seeds 0 and 1, which
`--tune` runs). The figure is precision@50: the share of the area among the first 50
papers ranked, of those the user has not decided on.

Side by side on the same episodes, in the same run:

* the recipe: arxiv-sanity-lite's, a TF-IDF of the title and abstract (1-2 grams,
  sublinear tf, at most 20,000 terms) and a linear SVM (C=0.01, balanced classes)
  trained with the user's kept papers against every other paper;
* "for you" ranked by the model's score alone ("by score");
* "for you" as the user sees it: the same scores with the top in its broad order
  (maximal marginal relevance, `for_you.diversify`).

Breadth: the kept papers of an episode are clustered (k-means, up to 4 clusters, in the
recipe's TF-IDF space, which no model here tunes), each of the first 20 papers belongs to
the cluster of the kept paper closest to it, and the figure is how many of the clusters
the first 20 reach. The area is never a feature: the models see the texts (title,
abstract, keywords, TL;DR), the reviewers' summaries where the data holds the reviews (as
a library does once its reviews are imported) and the decisions only. "For you" without
the reviews (a list imported alone) is run on the same episodes beside it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

OTHER = "other topics"  # the area left out: "other topics in machine learning (i.e., none of the above)"
TRIAGED, FOUND, K, TOP = 80, 5, 50, 20
SEEDS, TUNING_SEEDS = (100, 101), (0, 1)
CLUSTERS = 4


def load_summaries(path: str) -> list[tuple[str, str]]:
    """(paper id, its reviewers' summaries) of every forum of an OpenReview dump with its
    replies, read as the reviews store reads them ([] for a list without reviews)."""
    import gzip

    import orjson

    from reader_tui.core.reviews import forum_record, replies_of, review_summaries

    found = []
    with (gzip.open(path, "rb") if str(path).endswith(".gz") else open(path, "rb")) as lines:
        for line in lines:
            record = orjson.loads(line)
            replies = replies_of(record) if isinstance(record, dict) else None
            if replies:
                text = review_summaries(forum_record(record, replies, str(record.get("id", ""))))
                if text:
                    found.append((str(record["id"]), text))
    return found


def areas_of(views: Sequence) -> list[str]:
    """Every primary area of `views` but "other topics", by name."""
    return sorted({v.paper.area for v in views if v.paper.area and not v.paper.area.startswith(OTHER)})


def simulate(views: Sequence, area: str, seed: int) -> dict[str, Any]:
    """The decisions of a user interested in `area` (id -> Status), in the order made:
    the first 80 papers of a shuffle, then 5 more of the area found by search."""
    from reader_tui.core.model import Status

    rng = random.Random(seed)
    decided = {}
    for view in rng.sample(list(views), TRIAGED):
        decided[view.id] = Status.TO_READ if view.paper.area == area else Status.SKIPPED
    more = [v for v in views if v.paper.area == area and v.id not in decided]
    for view in rng.sample(more, FOUND):
        decided[view.id] = Status.TO_READ
    return decided


class Recipe:
    """arxiv-sanity-lite's recommendation recipe over `views`: the TF-IDF once, an SVM
    per user."""

    def __init__(self, views: Sequence) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer

        vectorizer = TfidfVectorizer(
            strip_accents="unicode", lowercase=True, analyzer="word", stop_words="english",
            token_pattern=r"(?u)\b[a-zA-Z_][a-zA-Z0-9_]+\b", ngram_range=(1, 2), max_features=20000,
            norm="l2", use_idf=True, smooth_idf=True, sublinear_tf=True, max_df=0.1, min_df=5,
        )
        self.matrix = vectorizer.fit_transform([f"{v.title} | {v.abstract}" for v in views]).tocsr()

    def scores(self, positive: Sequence[int]) -> Any:
        """Every paper's margin, trained with the `positive` rows against all the others."""
        import numpy as np
        from sklearn.svm import LinearSVC

        y = np.zeros(self.matrix.shape[0])
        y[list(positive)] = 1
        svm = LinearSVC(class_weight="balanced", max_iter=10000, tol=1e-6, C=0.01)
        return svm.fit(self.matrix, y).decision_function(self.matrix)


def _resident_mb() -> int:
    """This process's resident memory now, in MB (Linux; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as statm:
            import os

            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 2**20
    except OSError:
        return 0


def top(score: Any, exclude: Sequence[int], k: int) -> list[int]:
    """The `k` best rows by `score`, leaving out `exclude`."""
    import numpy as np

    s = np.asarray(score, dtype=np.float64).copy()
    s[list(exclude)] = -np.inf
    return np.argsort(-s, kind="stable")[:k].tolist()


def clusters_reached(matrix: Any, kept: Sequence[int], first: Sequence[int]) -> tuple[int, int]:
    """(clusters of the kept papers reached by `first`, clusters): see the module docstring."""
    import numpy as np
    from sklearn.cluster import KMeans

    k = min(CLUSTERS, len(kept))
    rows = matrix[list(kept)]
    labels = KMeans(n_clusters=k, n_init=10, random_state=0).fit_predict(rows.toarray()) if k > 1 else np.zeros(len(kept), int)
    nearest = np.asarray((matrix[list(first)] @ rows.T).toarray().argmax(axis=1)).ravel()
    return len(set(labels[nearest].tolist())), len(set(labels.tolist()))


def run(views: Sequence, seeds: Sequence[int] = SEEDS, areas: Sequence[str] | None = None,
        reviews: Sequence[tuple[str, str]] = ()) -> dict:
    """Every episode of the protocol: precision@50 and breadth of the recipe and "for
    you" (by score and broad; with `reviews`, the reviewers' summaries, also without
    them), with the times of the features, training and a whole order."""

    from reader_tui.core.model import Annotation, PaperView, Status
    from reader_tui.core.related import for_you
    from reader_tui.core.search.index import SearchIndex

    views = list(views)
    area_of = [v.paper.area for v in views]
    areas = list(areas or areas_of(views))
    index = SearchIndex.build(views)
    import gc

    import numpy  # noqa: F401  (the libraries' own memory is not the features')
    import sklearn.svm  # noqa: F401

    gc.collect()
    before = _resident_mb()
    start = time.perf_counter()
    features = for_you.Features(index, views, reviews)
    features_s = time.perf_counter() - start
    gc.collect()
    features_mb = _resident_mb() - before
    alone = for_you.Features(index, views) if reviews else None
    start = time.perf_counter()
    recipe = Recipe(views)
    recipe_s = time.perf_counter() - start
    row_of = {v.id: i for i, v in enumerate(views)}
    assert features.ids == [v.id for v in views]
    episodes, trains, orders = [], [], []
    for area in areas:
        for seed in seeds:
            decided = simulate(views, area, seed)
            rows = [row_of[pid] for pid in decided]
            kept = [row_of[pid] for pid, status in decided.items() if status is not Status.SKIPPED]
            annotated = [PaperView(views[row_of[pid]].paper, Annotation(status=status)) for pid, status in decided.items()]
            start = time.perf_counter()
            model = for_you.train(features, annotated)
            trains.append(time.perf_counter() - start)
            order = for_you.for_you_order(model, features.ids)
            orders.append(time.perf_counter() - start)
            ranked = {
                "recipe": top(recipe.scores(kept), rows, K),
                "by_score": top(model.margin, rows, K),
                "for_you": [row_of[pid] for pid in order[:K]],
            }
            if alone is not None:
                plain = for_you.for_you_order(for_you.train(alone, annotated), alone.ids)
                ranked["without_reviews"] = [row_of[pid] for pid in plain[:K]]
            episode: dict[str, Any] = {"area": area, "seed": seed, "kept": len(kept)}
            for name, first in ranked.items():
                episode[name] = sum(area_of[i] == area for i in first) / K
                episode[f"{name}_reach"], episode["clusters"] = clusters_reached(recipe.matrix, kept, first[:TOP])
            episodes.append(episode)
            print(f"{area[:40]:<40} {seed:>4} " + " ".join(f"{name} {episode[name]:.2f}" for name in ranked),
                  file=sys.stderr, flush=True)
    names = ("recipe", "by_score", "for_you", "recipe_reach", "by_score_reach", "for_you_reach", "clusters") + (
        ("without_reviews",) if alone is not None else ())
    per_area = {}
    for area in areas:
        mine = [e for e in episodes if e["area"] == area]
        per_area[area] = {
            "papers": area_of.count(area),
            "base_rate": round(area_of.count(area) / len(views), 3),
            **{name: round(statistics.mean(e[name] for e in mine), 3) for name in names},
        }
    means = {name: round(statistics.mean(e[name] for e in episodes), 3) for name in names}
    gains = [e["for_you"] - e["recipe"] for e in episodes]
    plain_gains = [e["without_reviews"] - e["recipe"] for e in episodes] if alone is not None else []
    return {
        "papers": len(views), "seeds": list(seeds), "areas": per_area, "mean": means,
        "reviewed": len(reviews),
        "gain_mean": round(statistics.mean(gains), 3),
        "episodes_ahead": sum(g > 0 for g in gains), "episodes": len(episodes),
        **({"without_reviews_gain_mean": round(statistics.mean(plain_gains), 3),
            "without_reviews_ahead": sum(g > 0 for g in plain_gains)} if plain_gains else {}),
        "features_s": round(features_s, 3), "features_mb": features_mb, "recipe_features_s": round(recipe_s, 1),
        "train_p50_s": round(statistics.median(trains), 3), "train_max_s": round(max(trains), 3),
        "order_p50_s": round(statistics.median(orders), 3), "order_max_s": round(max(orders), 3),
    }


def triage_run(views: Sequence, seeds: Sequence[int] = SEEDS[:1], areas: Sequence[str] | None = None,
               reviews: Sequence[tuple[str, str]] = ()) -> dict:
    """Active triage: how many of the area's papers a simulated user keeps in 80
    decisions, after finding 5 by search, when the papers come in random order, in the
    recipe's order, in "for you" order, and in "for you" order with one paper in four
    the one the model is least sure of (`for_you.triage_pick`). The first 5 decisions
    are random papers (so that there is something to skip); the models are trained again
    every 10 decisions."""
    from reader_tui.core.model import Annotation, PaperView, Status
    from reader_tui.core.related import for_you
    from reader_tui.core.search.index import SearchIndex

    views = list(views)
    areas = list(areas or areas_of(views))
    features = for_you.Features(SearchIndex.build(views), views, reviews)
    recipe = Recipe(views)
    ids = features.ids
    row_of = {pid: i for i, pid in enumerate(ids)}
    found: dict[str, list[int]] = {name: [] for name in ("random", "recipe", "for_you", "active")}
    for area in areas:
        for seed in seeds:
            rng = random.Random(seed)
            shuffled = list(range(len(views)))
            rng.shuffle(shuffled)
            searched = rng.sample([i for i, v in enumerate(views) if v.paper.area == area], FOUND)
            for name in found:
                kept = list(searched)
                decided = set(searched)
                walk = iter(shuffled)
                score: Any = None
                model: Any = None
                for step in range(TRIAGED):
                    if name != "random" and step >= 5 and (step - 5) % 10 == 0:
                        if name == "recipe":
                            score = recipe.scores(kept)
                        else:
                            annotated = [PaperView(views[i].paper, Annotation(
                                status=Status.TO_READ if i in kept else Status.SKIPPED)) for i in decided]
                            model = for_you.train(features, annotated)
                    if name == "random" or step < 5:
                        pick = next(i for i in walk if i not in decided)
                    elif name == "recipe":
                        pick = top(score, sorted(decided), 1)[0]
                    else:
                        candidates = [pid for i, pid in enumerate(ids) if i not in decided]
                        pid = for_you.triage_pick(model, candidates, step - 5, every=0 if name == "for_you" else
                                                  for_you.EXPLORE_EVERY)
                        pick = row_of[pid]
                    decided.add(pick)
                    if views[pick].paper.area == area:
                        kept.append(pick)
                found[name].append(len(kept) - FOUND)
            print(f"{area[:40]:<40} {seed:>4} " + " ".join(f"{k} {v[-1]}" for k, v in found.items()),
                  file=sys.stderr, flush=True)
    return {"areas": areas, "seeds": list(seeds), "found": found,
            "mean": {name: round(statistics.mean(v), 2) for name, v in found.items()}}


def table(result: dict) -> str:
    """The per-area table (markdown), as benchmarks/README.md shows it."""
    plain = "without_reviews" in result["mean"]
    lines = [
        "| primary area | papers | base rate | recipe | " + ("for you, without reviews | " if plain else "")
        + "for you, by score | for you | clusters reached in the top 20 (recipe / by score / for you) |",
        "|---|---|---|---|---|---|---|" + ("---|" if plain else ""),
    ]
    rows = [(area, r, f"{r['papers']:,}", f"{r['base_rate']:.3f}", 1) for area, r in result["areas"].items()]
    for area, r, papers, base, digits in [*rows, ("mean", result["mean"], "", "", 2)]:
        without = f"{r['without_reviews']:.3f} | " if plain else ""
        lines.append(f"| {area} | {papers} | {base} | {r['recipe']:.3f} | {without}{r['by_score']:.3f} "
                     f"| {r['for_you']:.3f} | {r['recipe_reach']:.{digits}f} / {r['by_score_reach']:.{digits}f} / "
                     f"{r['for_you_reach']:.{digits}f} of {r['clusters']:.{digits}f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="a list with primary areas (the reviews data)")
    parser.add_argument("--tune", action="store_true", help="the tuning episodes (seeds 0 and 1), not the reported ones")
    parser.add_argument("--area", action="append", help="only this area (repeatable; default: the 20 areas)")
    parser.add_argument("--triage", action="store_true", help="active triage: papers kept in 80 decisions, by order")
    parser.add_argument("--no-reviews", action="store_true", help="leave the reviewers' summaries out")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from .synthetic import load_views

    reviews = [] if args.no_reviews else load_summaries(args.data)

    if args.triage:
        result = triage_run(load_views(args.data), TUNING_SEEDS[:1] if args.tune else SEEDS[:1], args.area, reviews)
        if args.json:
            json.dump(result, sys.stdout, indent=1)
            print()
        else:
            print("papers of the area kept in 80 decisions, mean over the areas: " + ", ".join(
                f"{name} {value}" for name, value in result["mean"].items()))
        return 0

    result = run(load_views(args.data), TUNING_SEEDS if args.tune else SEEDS, args.area, reviews)
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return 0
    print(table(result))
    print(f"\nfor you - recipe: {result['gain_mean']:+.3f} on average, ahead in {result['episodes_ahead']} of "
          f"{result['episodes']} episodes ({result['reviewed']:,} papers with reviewers' summaries)")
    if "without_reviews_gain_mean" in result:
        print(f"for you without reviews - recipe: {result['without_reviews_gain_mean']:+.3f}, ahead in "
              f"{result['without_reviews_ahead']} of {result['episodes']} episodes")
    print(f"features {result['features_s']} s, {result['features_mb']} MB resident (the recipe's TF-IDF "
          f"{result['recipe_features_s']} s); training p50 "
          f"{result['train_p50_s']} s (max {result['train_max_s']} s); a whole order (training included) p50 "
          f"{result['order_p50_s']} s (max {result['order_max_s']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
