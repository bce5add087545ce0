"""A library of three topic clusters (graphs, reinforcement learning, diffusion) with
hand-written abstracts: the related papers of each paper are the rest of its cluster."""

from __future__ import annotations

from pathlib import Path

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper

_CLUSTERS = {
    "graph": [
        ("Message Passing Graph Networks for Molecules", "Graph neural networks pass messages between atoms of molecular graphs to predict molecule properties."),
        ("Equivariant Graph Networks for Protein Molecules", "An equivariant graph neural network over molecular graphs of proteins predicts binding of molecules."),
        ("Scaling Graph Transformers on Molecular Graphs", "Graph transformers attend over atoms of molecular graphs; message passing and molecule property prediction."),
        ("Oversmoothing in Deep Graph Neural Networks", "Deep graph neural networks oversmooth node features of graphs; message passing on molecular graphs suffers."),
    ],
    "rl": [
        ("Reward Shaping for Robot Reinforcement Learning", "A reinforcement learning agent learns a policy from shaped reward signals for robot control."),
        ("Offline Reinforcement Learning with Policy Constraints", "Offline reinforcement learning constrains the policy to the dataset; reward and value estimation for the agent."),
        ("Exploration Bonuses for Sparse Reward Agents", "Agents exploring sparse reward environments learn a policy with reinforcement learning exploration bonuses."),
        ("Model-Based Policy Optimisation for Robot Agents", "A learned world model improves policy optimisation and reward for reinforcement learning robot agents."),
    ],
    "diffusion": [
        ("Denoising Diffusion for High Resolution Images", "A denoising diffusion model generates images by reversing a noise process; image sampling and denoising."),
        ("Faster Sampling of Diffusion Image Models", "Few-step sampling for diffusion models of images with a learned noise schedule and denoising."),
        ("Latent Diffusion for Video and Image Generation", "Latent diffusion denoising in an autoencoder space generates image and video samples from noise."),
        ("Guidance for Text to Image Diffusion Models", "Classifier-free guidance steers denoising diffusion sampling of text to image models away from noise."),
    ],
}

PAPERS = [
    Paper(
        id=f"{topic}-{n}",
        title=title,
        abstract=abstract,
        venue="ICLR",
        year=2026,
        citekey=f"{topic}{n}2026",
        added=f"2025-11-01T00:00:{i:02d}+00:00",
    )
    for i, (topic, n, title, abstract) in enumerate(
        (topic, n, title, abstract) for topic, rows in _CLUSTERS.items() for n, (title, abstract) in enumerate(rows)
    )
]

TOPIC = {p.id: p.id.split("-")[0] for p in PAPERS}


def cluster_library(folder: Path) -> Library:
    library = Library.open(folder, background_writes=True)
    library.import_papers(PAPERS)
    return library
