"""core.text: LaTeX/markdown to display text, sanitizing, ids and derived titles."""

from __future__ import annotations

import re
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reader_tui.core.text import display as text_module
from reader_tui.core.text.display import (
    normalise,
    one_line,
    sanitize,
    stable_id,
    styled_segments,
    to_display,
)
from reader_tui.core.text.titles import DerivedTitle, derive_title, unique_titles

SEED = Path(__file__).parents[3] / "seeds" / "iclr2026.txt"


def seed_abstracts() -> list[str]:
    paragraphs = [p.strip() for p in SEED.read_text(encoding="utf-8").split("\n\n") if p.strip()]
    return paragraphs[1:]  # the first is the header


# --------------------------------------------------------------------------- to_display


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (r"\textbf{X}", "X"),
        (r"$\texttt{EQUAL}$", "EQUAL"),
        ("**PG-Occ**", "PG-Occ"),
        ("*task-invariant*", "task-invariant"),
        ("H$^3$GNNs", "H³GNNs"),
        (r"5\%", "5%"),
        (r"$O(K)$", "O(K)"),
        ("Mamba-2---and", "Mamba-2—and"),
        (r"5\%-10\% of it", "5%-10% of it"),
        (r"$\textbf{E}$ffective", "Effective"),
        ("**P**rogressive", "Progressive"),
        (r"$\alpha_i \leq 10^{-3}$", "αᵢ ≤ 10⁻³"),
        # spaces as the author wrote them, not LaTeX's rule that a command eats the next one
        (r"we use \alpha values", "we use α values"),
        (r"\alpha{}x and $\alpha x$", "αx and α x"),
        (r"\LaTeX\ and \TeX{} documents", "LaTeX and TeX documents"),
        ("snake_case stays", "snake_case stays"),
        ("`code_x` and _it_", "code_x and it"),
        ("[the code](https://x.org/a_b~c)", "the code (https://x.org/a_b~c)"),
        ("see https://x.org/a_b~c%20d.", "see https://x.org/a_b~c%20d."),
        ("``quoted''", "\u201cquoted\u201d"),
        ("curly \u201cquotes\u201d \u2013 en dash", "curly \u201cquotes\u201d \u2013 en dash"),
    ],
)
def test_to_display_renders_latex_and_markdown(source: str, shown: str) -> None:
    assert to_display(source) == shown


def test_bare_percent_does_not_swallow_the_rest() -> None:
    # pylatexenc reads % as a comment; abstracts write "5% of" without a backslash.
    assert to_display("gains 5% over $x$ baselines and more") == "gains 5% over x baselines and more"
    assert to_display("up to 20% faster. Code: \\textbf{soon}") == "up to 20% faster. Code: soon"


def test_whitespace_collapsed_paragraphs_kept() -> None:
    assert to_display("a  b\t c\n d\n\n\n\n e  ") == "a b c\nd\n\ne"
    assert to_display("  \n\n ") == ""
    assert to_display(r"\textbf{a}   \emph{b}") == "a b"


@pytest.mark.parametrize(
    "source",
    [r"\textbf{unclosed", "lone $ dollar", "$", "$$", "%", "\\", "\\\\", "{", "}}}", r"\begin{x}",
     r"\end{itemize}", r"$\frac{1}{$", r"\url{", r"\href{a}", "^_^", "~~~", r"\verb|x", "**", "*"],
)
def test_malformed_latex_falls_back(source: str) -> None:
    shown = to_display(source)
    assert isinstance(shown, str)
    assert "\x1b" not in shown


def test_malformed_keeps_the_words() -> None:
    assert to_display(r"\textbf{unclosed words") == "unclosed words"
    assert to_display("costs $5 and more") == "costs $5 and more"


def test_light_path_renders_like_pylatexenc(monkeypatch: pytest.MonkeyPatch) -> None:
    # The regex fast path must not change what the parser would show.
    samples = [*seed_abstracts(), r"a \textbf{b} \alpha{}x $\mathbf{x}_i$ \emph{max--max} 5\% ---"]
    for sample in samples:
        fast = text_module._tidy(text_module._raw_segments(sample))
        monkeypatch.setattr(text_module, "USE_LIGHT", False)
        slow = text_module._tidy(text_module._raw_segments(sample))
        monkeypatch.setattr(text_module, "USE_LIGHT", True)
        assert fast == slow


# --------------------------------------------------------------------------- sanitize


def test_sanitize_makes_controls_visible() -> None:
    assert sanitize("\x1b[31mred\x07") == "␛[31mred␇"
    assert sanitize("a\x9bb") == "a\ufffdb"
    assert sanitize("a\rb\x7f") == "a␍b␡"
    assert sanitize("keep\nlines\tand tabs") == "keep\nlines\tand tabs"


def test_sanitize_shows_bidi_controls_and_drops_zero_width() -> None:
    # An override or isolate shown as it is would reorder the screen around it (the
    # "Trojan Source" trick): it is shown as U+FFFD instead; the text itself stays.
    assert sanitize("abc\u202eevil\u202c\u2066x\u2069") == "abc\ufffdevil\ufffd\ufffdx\ufffd"
    assert sanitize("zero\u200bwidth\ufeff\u2060 mark\u200f") == "zerowidth mark"
    family = "👩\u200d👩\u200d👧"
    assert sanitize(family) == family  # ZWJ joins emoji: kept
    assert sanitize("שלום مرحبا 論文 한국어 e\u0301 🎉 𝔘") == "שלום مرحبا 論文 한국어 e\u0301 🎉 𝔘"


def test_sanitize_shows_every_control_and_escape_sequence() -> None:
    assert sanitize("\x1b]0;pwned\x07") == "␛]0;pwned␇"  # retitles the terminal
    assert sanitize("\x1b[2J") == "␛[2J"  # clears the screen
    assert sanitize("a\x9b2Jb\x85") == "a\ufffd2Jb\ufffd"  # C1 CSI, NEL
    assert sanitize("\x00\x08\x0b\x0c\x7f") == "␀␈␋␌␡"
    assert sanitize("line\r\nnext\rover") == "line\nnext␍over"  # CRLF is a line break
    assert sanitize("lone \udc80 surrogate") == "lone \ufffd surrogate"
    assert sanitize("para\u2029next") == "para\n\nnext"


def test_visible_controls_keeps_every_index() -> None:
    from reader_tui.core.text.display import visible_controls

    text = "a\x1b]0;t\x07\tb\nc\x9b\u202e\u200bd\u2028é🎉"
    shown = visible_controls(text)
    assert shown == "a␛]0;t␇␉b␊c\ufffd\ufffd\u200bd\u2424é🎉"
    assert len(shown) == len(text)
    assert visible_controls("plain ASCII") == "plain ASCII"


def test_to_display_output_is_sanitized() -> None:
    shown = to_display("\x1b]52;c;ZWNobyBoaQ==\x07 \\textbf{x}\u202e")
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert all(not unicodedata.category(c).startswith("C") or c in "\n\t" for c in shown)


# --------------------------------------------------------------------------- segments


def test_styled_segments_styles() -> None:
    segments = styled_segments(r"we propose \textbf{GeoPurify} with *care*, `code` and $O(K)$ time")
    assert segments == [
        ("we propose ", ""),
        ("GeoPurify", "bold"),
        (" with ", ""),
        ("care", "italic"),
        (", ", ""),
        ("code", "code"),
        (" and ", ""),
        ("O(K)", "math"),
        (" time", ""),
    ]


def test_styled_segments_join_to_display() -> None:
    for abstract in seed_abstracts():
        segments = styled_segments(abstract)
        assert "".join(chunk for chunk, _ in segments) == to_display(abstract)
        assert {style for _, style in segments} <= {"", "bold", "italic", "code", "math"}
    assert styled_segments("**PG-Occ**, an **P**rogressive")[:2] == [("PG-Occ", "bold"), (", an ", "")]


# --------------------------------------------------------------------------- one_line, normalise, ids


def test_one_line() -> None:
    assert one_line("a\n\nb \\textbf{c}\td") == "a b c d"
    assert one_line("the quick brown fox jumps", 15) == "the quick…"
    assert len(one_line("word " * 50, 30)) <= 30
    assert one_line("short", 30) == "short"


def test_normalise() -> None:
    assert normalise("Hello,  \\textbf{World}!\r\n") == "hello world"
    assert normalise("ＡＢＣ") == "abc"  # NFKC
    assert normalise("Straße") == "strasse"  # casefold


def test_stable_id_ignores_whitespace_and_line_endings() -> None:
    abstract = seed_abstracts()[0]
    ident = stable_id(abstract)
    assert len(ident) == 10 and ident.isalnum() and ident == ident.lower()
    assert stable_id(abstract.replace(" ", "  ").replace(". ", ".\r\n") + "  \n") == ident
    assert stable_id(abstract + " More.") != ident


def test_stable_id_is_stable_across_versions() -> None:
    # Annotations are keyed by these ids: changing the hash orphans every user's notes.
    assert stable_id("Hello world") == stable_id("hello,  WORLD")
    assert stable_id(seed_abstracts()[0]) == "y3ftt5oorg"


def test_unique_titles() -> None:
    assert unique_titles(["a", "b", "a", "a"]) == ["a", "b", "a (2)", "a (3)"]
    assert unique_titles(["a", "a (2)", "a"]) == ["a", "a (2)", "a (3)"]
    assert unique_titles([]) == []


# --------------------------------------------------------------------------- derived titles

SEED_TITLES = {
    # "where we train": no "we" in a title
    "Active Reading": "Active Reading: a framework that trains models to study a given set of material with…",
    "SOCOP": "SOCOP: Singleton-Optimized Conformal Prediction",
    "GeoPurify": "GeoPurify: applies a small Student Affinity Network to purify 2D VLM-generated 3D point features…",
    # "that avoids this problem" leans on the sentence before: cut, keeping how it works.
    "BeyondBench": "BeyondBench: an evaluation framework using algorithmic problem generation",
    # "designed to effectively handle such complex nature of ...": cut.
    "ATLAS": "ATLAS: a general multi-agent framework",
    "log-linear attention": "Log-linear attention: an attention mechanism that balances linear attention's efficiency and the…",
    "PG-Occ": "PG-Occ: a Progressive Gaussian Transformer Framework that enables open-vocabulary 3D occupancy…",
    "CoTA": "CoTA: a plug-and-play method for mitigating repetition",
    "MuonBP": "MuonBP: Muon with Block-Periodic Orthogonalization",
    "EQUAL": "EQUAL: an Effective and scalable data extraction framework that iteratively interleaves document…",
    "H³GNNs": "H³GNNs: an end-to-end graph SSL framework designed to harmonize heterophily and homophily through…",
}


def test_seed_titles() -> None:
    derived = [derive_title(a) for a in seed_abstracts()]
    by_name = {d.short_name: d.title for d in derived if d.short_name}
    for name, title in SEED_TITLES.items():
        assert by_name[name] == title
    unnamed = [d.title for d in derived if not d.short_name]
    assert "Associative memory network with a threshold nonlinearity that enables distributed representations" in unnamed
    # A bare kind ("a novel classifier-free guidance mechanism") gets what the next sentence says it does.
    assert "Classifier-free guidance mechanism that smoothens the transport between the data distribution and…" in unnamed
    # "these weaker (partial) calibration guarantees": the determiner that points back goes.
    assert "How a conservative decision maker should map predictions endowed with weaker (partial) calibration…" in unnamed
    for d in derived:
        assert not re.search(r"\b(?:novel|this|these|such)\b", d.title, re.I), d.title
    for d in derived:
        assert d.title and "\n" not in d.title and len(d.title) <= 100
        assert not any(c in d.title for c in "\\$*{}")


@pytest.mark.parametrize(
    ("abstract", "name", "title"),
    [
        ("We study X. Here we propose FooNet, a simple model for cats.", "FooNet", "FooNet: a simple model for cats"),
        ("We propose a novel framework called BarNet that does things.", "BarNet", "BarNet: a framework"),
        ("Results. We propose a new method. Our approach, BazNet, wins.", "BazNet", "BazNet: a method"),
        ("We present Deep Widget Networks (DWN), which scale.", "DWN", "DWN: Deep Widget Networks, which scale"),
        ("We introduce Singleton-Optimized Conformal Prediction (SOCOP).", "SOCOP", "SOCOP: Singleton-Optimized Conformal Prediction"),
        ("Cats are great. Dogs too.", "", "Cats are great"),
        ("we propose a novel framework that learns fast.", "", "A framework that learns fast"),
        ("we propose a novel multi-stage ranking method that learns fast.", "", "Multi-stage ranking method that learns fast"),
    ],
)
def test_derive_title_patterns(abstract: str, name: str, title: str) -> None:
    assert derive_title(abstract) == DerivedTitle(title, name)


@pytest.mark.parametrize(
    ("abstract", "name", "title"),
    [
        # a clause that leans on earlier sentences is cut, keeping how the thing works
        ("Benchmarks leak. In this paper, we introduce FooBench, an evaluation framework that avoids this"
         " problem by using procedural generation.", "FooBench", "FooBench: an evaluation framework using procedural generation"),
        ("Planning is hard. We present ZAP, a planner designed to handle such complex constraints in travel.",
         "ZAP", "ZAP: a planner"),
        # "these X" keeps X
        ("Sinks exist. We present a study of the information held in these sink tokens.", "",
         "A study of the information held in sink tokens"),
        # a bare kind gets what the next sentence says it does
        ("Guidance is flawed. We propose a new guidance mechanism. Intuitively, our method smooths the path between"
         " two distributions, which helps.", "", "Guidance mechanism that smooths the path between two distributions"),
        # an interjection goes with the relative pronoun
        ("We propose SoundKit, which, to the best of our knowledge, is the first online audio model.", "SoundKit",
         "SoundKit: the first online audio model"),
        # a field's acronym is not the contribution's name
        ("We introduce a framework for teaching multimodal language models (MLLMs) to reason about humor.", "",
         "A framework for teaching multimodal language models (MLLMs) to reason about humor"),
        # a long spelled-out name before its acronym; no "Name: via ..."
        ("We propose Precision Retrieval via Logical Document Graphs for Retrieval-Augmented Generation (LOGOS),"
         " a new framework.", "LOGOS", "LOGOS: Precision Retrieval via Logical Document Graphs for Retrieval-Augmented Generation"),
        ("We use the findings to propose Variance Aligned Constrained Optimization (VACO) as a fix.", "VACO",
         "VACO: Variance Aligned Constrained Optimization"),
        ("Models forget. Our work, SkillPress, is a method for teaching models skills before RL.", "SkillPress",
         "SkillPress: a method for teaching models skills before RL"),
        # how a limitation is addressed, when nothing is proposed
        ("Mean flows are poor. In this work, we address this limitation by incorporating optimal transport into"
         " mean flows, enabling one-step generators.", "", "Incorporating optimal transport into mean flows"),
        ("Two bottlenecks remain. We address these challenges with a unified framework that combines retrieval"
         " and collaboration.", "", "Unified framework that combines retrieval and collaboration"),
        # a name given in passing, after "our"
        ("Our approach estimates an interval and introduces new algorithms for regression. We prove that our"
         " algorithm, RPWithPrior, is private.", "RPWithPrior", "RPWithPrior: new algorithms for regression"),
        # a name that was an undefined macro: what its parentheses spell out leads
        ("We develop \\method(Benchmark Tuning with an LLM-in-the-loop), a framework that automates design.", "",
         "Benchmark Tuning with an LLM-in-the-loop: a framework that automates design"),
        ("We propose RLoT: RL-of-Thoughts, where we train a small navigator.", "RLoT",
         "RLoT: RL-of-Thoughts that trains a small navigator"),
        ("We propose a training recipe in which we generate synthetic data.", "", "Training recipe that generates synthetic data"),
        # a claim when nothing is proposed, never one about "our approach"
        ("Data mixing matters. We show that the optimal proportion converges to the golden ratio.", "",
         "The optimal proportion converges to the golden ratio"),
    ],
)
def test_derive_title_stands_on_its_own(abstract: str, name: str, title: str) -> None:
    assert derive_title(abstract) == DerivedTitle(title, name)


def test_derive_title_never_empty_and_cut_at_a_word() -> None:
    assert derive_title("").title == "Untitled"
    assert derive_title("   \n ").title == "Untitled"
    long = derive_title("word " * 100).title
    assert long.endswith("…") and len(long) <= 100 and not long.endswith(" …")


def test_derive_title_is_fast() -> None:
    abstracts = seed_abstracts() * 20
    start = time.process_time()
    for abstract in abstracts:
        derive_title(abstract + " ")  # a fresh string each time: nothing cached
    per_abstract = (time.process_time() - start) / len(abstracts)
    assert per_abstract < 0.005  # generous: CI machines are slow and busy


# --------------------------------------------------------------------------- never raises

_TOKENS = [*"\\${}%^_~*`[]()#&ab c\n\t\x1b\u202e.,", "\\textbf{", "$\\texttt{", "**", "---", "we propose "]
_LATEXISH = st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), _LATEXISH))
@example(r"\textbf{unclosed")
@example("$$$")
@example("\\url{\\href{")
def test_never_raises(source: str) -> None:
    shown = to_display(source)
    assert "\x1b" not in shown and "\u202e" not in shown
    assert "".join(chunk for chunk, _ in styled_segments(source)) == shown
    assert "\x1b" not in sanitize(source)
    derived = derive_title(source)
    assert derived.title and "\n" not in derived.title and len(derived.title) <= 100
    assert len(stable_id(source)) == 10
    one_line(source, 20)
    normalise(source)


def test_spelled_out_characters_and_approximately_show() -> None:
    from reader_tui.core.text.display import to_display

    assert to_display(r"a \textless{} b \textbar{} c \textgreater{} d") == "a < b | c > d"
    assert to_display(r"x \textasciicircum{} y \textbackslash{} z") == "x ^ y \\ z"
    assert to_display("about ~10x faster") == "about ~10x faster"
    assert to_display("Fig.~3") == "Fig.\xa03" or to_display("Fig.~3") == "Fig. 3"


# --------------------------------------------------------------------------- LaTeX before markdown


@pytest.mark.parametrize("light", [True, False])
@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("Evil ``how'' d{\\'e}j{\\`a} vu", "Evil \u201chow\u201d déjà vu"),
        ("Universit\\`a di Roma and \\`{e}", "Università di Roma and è"),
        ("the `a' and `b' rule", "the `a' and `b' rule"),  # LaTeX single quotes, not code
        ("M{\\\"u}ller and V{\\'e}lez", "Müller and Vélez"),
        ("\\\"{u}ber \\c{c}a {\\'\\i} Bj{\\o}rn", "über ça í Bjørn"),
        ("{Ecole Polytechnique F\\'ed\\'erale}", "Ecole Polytechnique Fédérale"),
        ("use `code` here", "use code here"),  # markdown code still reads as code
        ("\\cdot, \\v{s} and \\u{a}", "·, š and ă"),  # \cdot is no cedilla
    ],
)
def test_latex_quotes_and_accents_are_read_before_markdown(source: str, shown: str, light: bool, monkeypatch) -> None:
    monkeypatch.setattr(text_module, "USE_LIGHT", light)
    text_module._segments.cache_clear()
    assert text_module.render_uncached(source) == shown
