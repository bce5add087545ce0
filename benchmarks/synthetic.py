"""Realistic synthetic paper lists for benchmarks: any size, deterministic.

With real papers to start from (an OpenReview dump), `grow` recombines their sentences,
titles and keywords into as many new papers as asked, so a 100,000-paper list has the
vocabulary and lengths of a real conference (and, grown from a list with reviews, its
TL;DRs, areas and scores). Without any, `generate` starts from the
bundled seed list's abstracts. `load_papers` and `load_views` give the benchmarks (and the
search tests) their papers: synthetic, or read from a list file.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path

from reader_tui.core.model import Paper

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z$\\*])")
_NAME_PARTS = (
    "Geo", "Flux", "Neuro", "Sparse", "Meta", "Graph", "Diffu", "Causal", "Quant", "Robo",
    "Token", "Vision", "Lang", "Cross", "Hyper", "Mono", "Poly", "Latent", "Fast", "Deep",
)
_NAME_ENDS = ("Net", "Former", "Mixer", "Align", "Bench", "Flow", "Purify", "Scope", "Guard", "Fusion")


def sentences(text: str) -> list[str]:
    """Split an abstract into sentences (good enough for recombining)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def grow(papers: Sequence[Paper], count: int, *, seed: int = 42) -> list[Paper]:
    """`count` papers: the given ones first, then recombinations of their parts."""
    rng = random.Random(seed)
    result = list(papers[:count])
    pool = [s for p in papers for s in sentences(p.abstract)] or ["An abstract."]
    titles = [p.title for p in papers if p.title] or ["A paper"]
    keywords = [k for p in papers for k in p.keywords] or ["machine learning"]
    # Grown from a list with reviews (the reviews file), each new paper takes the TL;DR,
    # area and scores of a real one, so that memory is measured "with scores"; drawn
    # from a generator of their own, so that lists without them grow as before.
    reviewed = [p for p in papers if p.scores is not None]
    donors = random.Random(seed + 1)
    n = len(result)
    while len(result) < count:
        name = rng.choice(_NAME_PARTS) + rng.choice(_NAME_ENDS) + (str(rng.randint(2, 99)) if rng.random() < 0.3 else "")
        body = [rng.choice(pool) for _ in range(rng.randint(5, 10))]
        body.insert(rng.randint(1, 3), f"We propose {name}, a method that addresses this problem.")
        base_title = rng.choice(titles)
        result.append(
            Paper(
                id=f"syn{n:07d}",
                title=f"{name}: {base_title}",
                abstract=" ".join(body),
                keywords=tuple(rng.sample(keywords, k=min(3, len(keywords)))),
                venue="ICLR 2026 Conference Submission",
                year=2026,
                url=f"https://example.org/paper/syn{n:07d}",
                short_name=name,
                **_review_fields(donors.choice(reviewed), n) if reviewed else {},
            )
        )
        n += 1
    return result


def _review_fields(donor: Paper, n: int) -> dict:
    return {"tldr": donor.tldr, "area": donor.area, "withdrawn": donor.withdrawn, "scores": donor.scores,
            "pdf_url": f"https://example.org/pdf/syn{n:07d}.pdf" if donor.pdf_url else ""}


def generate(count: int, *, seed: int = 42) -> list[Paper]:
    """`count` papers grown from the bundled seed list (no data file needed)."""
    from reader_tui.core.formats.seed import read_seed
    from reader_tui.core.paths import default_seed_path

    return grow(read_seed(default_seed_path()).papers, count, seed=seed)


def load_papers(data: Path | None, count: int | None) -> list[Paper]:
    """The papers to measure with: read from `data`, grown or cut to `count`."""
    if data is None:
        return generate(count or 2000)
    from reader_tui.core.formats.detect import read_any

    papers = read_any(data).papers
    if count is not None:
        papers = grow(papers, count) if count > len(papers) else papers[:count]
    return papers


def load_views(path: Path) -> list:
    """Unannotated views of every paper in a list file (any importable format): what the
    per-part benchmarks (`python -m benchmarks.bench_search FILE`, ...) measure with."""
    from reader_tui.core.formats.detect import read_any
    from reader_tui.core.model import Annotation, PaperView

    return [PaperView(paper, Annotation()) for paper in read_any(Path(path)).papers]
