"""Forty papers in two topics, for the "for you" tests: ten on molecular graphs (`g0`…`g9`),
ten on image diffusion (`d0`…`d9`) and twenty on one other word each (`f0`…`f19`),
interleaved, so that the catalog order is no answer."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

GRAPH_TITLES = [
    "Graph neural networks for molecular property prediction",
    "Message passing graph networks on molecules",
    "Equivariant graph neural networks for molecular dynamics",
    "Molecular graph generation with message passing",
    "Scaling graph neural networks to large molecules",
    "Graph transformers for molecular conformers",
    "Message passing over molecular graphs with attention",
    "Graph neural networks predict molecular energies",
    "Coarse molecular graphs for protein message passing",
    "Self-supervised molecular graph networks",
]
DIFFUSION_TITLES = [
    "Diffusion models for image synthesis",
    "Faster sampling of image diffusion models",
    "Latent diffusion denoising for high resolution images",
    "Guidance in diffusion image generation",
    "Consistency distillation of image diffusion",
    "Score matching diffusion for image editing",
    "Denoising diffusion image super resolution",
    "Video and image diffusion with transformers",
    "Diffusion models denoising images in few steps",
    "Text to image diffusion alignment",
]


_OTHER = (
    "auction bandits calibration compilers databases economics fairness games hardware kernels lattices "
    "markets negotiation oceans privacy quantum robotics satellites traffic weather"
).split()


def topic_papers() -> list[Paper]:
    # interleaved, so the catalog order is no answer: g0, d0, f0, g1, d1, f1, ...; twenty
    # other papers, one word each, so that a topic's words are in a quarter of the papers
    # (the features leave out words in more)
    papers = []
    for n, (graph, diffusion) in enumerate(zip(GRAPH_TITLES, DIFFUSION_TITLES)):
        papers.append(Paper(id=f"g{n}", title=graph, abstract=f"{graph}. We study molecules as graphs with message passing."))
        papers.append(Paper(id=f"d{n}", title=diffusion, abstract=f"{diffusion}. Denoising diffusion generates images."))
        for m in (2 * n, 2 * n + 1):
            word = _OTHER[m]
            papers.append(Paper(id=f"f{m}", title=f"On {word}", abstract=f"A study of {word} and {word} systems."))
    return papers


def open_topics(folder: Path) -> Library:
    """A library of `topic_papers()` in `folder` (the caller closes it)."""
    library = Library.open(folder, background_writes=True)
    library.import_papers(topic_papers())
    return library
