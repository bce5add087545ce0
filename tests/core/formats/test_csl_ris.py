"""CSL-JSON and RIS: names split as BibTeX splits them, Better BibTeX's keys, and the
round trips BibTeX -> CSL-JSON -> BibTeX and BibTeX -> RIS over the real .bib corpus,
each paper's key, type, title, names, year and every field the format holds kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader_tui.core.formats.csl_json import csl_losses, export_csl_json, read_csl_json
from reader_tui.core.formats.detect import detect_format, read_any
from reader_tui.core.formats.record import is_plain, month_number
from reader_tui.core.formats.ris import export_ris, read_ris, ris_losses
from reader_tui.core.library.library import Library
from reader_tui.core.text.bbt_keys import BBTKeys, bbt_key, pinned_key
from reader_tui.core.text.display import to_display
from reader_tui.core.text.names import split_authors
from reader_tui.core.text.person_names import bibtex_name, name_parts

CORPUS = Path(__file__).parents[2] / "fixtures" / "bib_corpus"
FILES = sorted(CORPUS.glob("*.bib"))


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("Ludwig van Beethoven", {"given": "Ludwig", "non-dropping-particle": "van", "family": "Beethoven"}),
        ("van Beethoven, Ludwig", {"given": "Ludwig", "non-dropping-particle": "van", "family": "Beethoven"}),
        ("Smith, Jr., John", {"given": "John", "family": "Smith", "suffix": "Jr."}),
        ("{World Health Organization}", {"literal": "World Health Organization"}),
        ("{Barnes and Noble}", {"literal": "Barnes and Noble"}),
        ("García Márquez, Gabriel", {"given": "Gabriel", "family": "García Márquez"}),
        ("Charles Louis Xavier Joseph de la Vall{\\'e}e Poussin",
         {"given": "Charles Louis Xavier Joseph", "non-dropping-particle": "de la", "family": "Vallée Poussin"}),
    ],
)
def test_a_name_splits_as_bibtex_splits_it_and_comes_back(name: str, parts: dict) -> None:
    assert name_parts(name, to_display) == parts
    assert name_parts(bibtex_name(parts)) == parts


def test_an_accent_at_the_start_of_a_name_stays_in_its_part() -> None:
    # bibtexparser's multi-name splitter loses "\'" here; ours (split_authors) does not,
    # and its single-name splitter keeps the accent in the given name.
    (first, second) = split_authors("Jon Kleinberg and \\'{E}va Tardos")
    assert second == "\\'{E}va Tardos"
    assert name_parts(second, to_display) == {"given": "Éva", "family": "Tardos"}
    assert name_parts("Tardos, {\\'E}va", to_display) == {"given": "Éva", "family": "Tardos"}


def test_better_bibtex_keys() -> None:
    assert bbt_key(["Ashish Vaswani"], "Attention Is All You Need", 2017) == "vaswaniAttentionAllYou2017"
    assert bbt_key(["Devlin, Jacob"], "BERT: Pre-training of Deep Bidirectional Transformers", 2019) == "devlinBERTPretrainingDeep2019"
    assert bbt_key(["Kaiming He"], "Deep Residual Learning for Image Recognition", "2016") == "heDeepResidualLearning2016"
    assert bbt_key(["M{\\\"u}ller, J."], "{\\'E}tude des {LLMs}", 2020) == "mullerEtudeLLMs2020"
    keys = BBTKeys()
    made = [keys.make(["A. Smith"], "Graph Networks", 2020) for _ in range(3)]
    assert made == ["smithGraphNetworks2020", "smithGraphNetworks2020a", "smithGraphNetworks2020b"]
    assert pinned_key("arXiv: 1706.03762\nCitation Key: vaswani2017\n") == "vaswani2017"


def _library(tmp_path: Path, path: Path) -> Library:
    library = Library.open(tmp_path / "lib", seed=None)
    result = read_any(path)
    library.import_papers(result.papers, result.annotations)
    return library


def _norm(value: str) -> str:
    text = to_display(value).replace("–", "-").replace("—", "-")
    return " ".join(text.replace("--", "-").split()).lower()


def _flat(plain: str) -> str:
    """`_norm` for text read back from a plain-text format: it is already what the
    screen shows, so it is compared as it is, not rendered again as LaTeX."""
    text = plain.replace("–", "-").replace("—", "-")
    return " ".join(text.replace("--", "-").split()).lower()


def _names(names) -> list[dict]:
    return [name_parts(n, to_display) for n in names]


#: what each file's round trip through CSL-JSON leaves to `custom` (other tools do not
#: see it), printed with -s, so the report can say per file what the format cannot hold
def _report(name: str, fmt: str, losses: dict[str, int]) -> None:
    print(f"\n{name} -> {fmt}: {json.dumps(losses, sort_keys=True) if losses else 'nothing lost'}")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_bibtex_to_csl_json_to_bibtex_keeps_every_entry_key_and_field(path: Path, tmp_path: Path) -> None:
    library = _library(tmp_path, path)
    views = library.views(list(library.papers))
    text = export_csl_json(views)
    _report(path.name, "CSL-JSON", csl_losses(views))
    out = tmp_path / "out.json"
    out.write_text(text, encoding="utf-8")
    assert detect_format(out) == "csljson"
    back = read_csl_json(out)
    assert back.problems == []
    assert len(back.papers) == len(views)
    for view, paper in zip(views, back.papers):
        assert paper.citekey == view.citekey
        assert paper.entry_type == view.paper.entry_type
        assert is_plain(paper)
        assert _flat(paper.title) == _norm(view.title) or view.paper.title_derived
        assert _names(paper.authors) == _names(a for a in view.authors if a.lower() != "anonymous")
        assert paper.year == view.year and paper.doi == view.doi.strip() and paper.url == view.url.strip()
        assert _flat(paper.abstract) == _norm(view.paper.abstract)
        extra = dict(paper.extra_fields)
        for name, value in view.paper.extra_fields:
            if name.startswith("@") or not value.strip() or name in ("title",):
                continue
            assert name in extra, (view.citekey, name)
            if name == "month" and month_number(value):
                assert month_number(extra[name]) == month_number(value)
            elif name in ("editor", "translator"):
                assert _names(split_authors(extra[name])) == _names(split_authors(value))
            else:
                assert _flat(extra[name]) == _norm(value), (view.citekey, name)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_bibtex_to_ris_keeps_every_entry_key_and_what_ris_holds(path: Path, tmp_path: Path) -> None:
    library = _library(tmp_path, path)
    views = library.views(list(library.papers))
    out = tmp_path / "out.ris"
    out.write_text(export_ris(views), encoding="utf-8")
    losses = ris_losses(views)
    _report(path.name, "RIS", losses)
    assert detect_format(out) == "ris"
    back = read_ris(out)
    assert back.problems == []
    assert [p.citekey for p in back.papers] == [v.citekey for v in views]
    split_names = capital_particles = 0
    for view, paper in zip(views, back.papers):
        assert _flat(paper.title) == _norm(view.title) or view.paper.title_derived
        expected = _names(a for a in view.authors if a.lower() != "anonymous")
        # What RIS cannot hold, reported: a comma inside a part (RIS separates parts by
        # commas), a capitalised particle (it reads back in the family name).
        if any("," in part for name in expected for part in name.values()):
            split_names += 1
        elif any(name.get("non-dropping-particle", "x")[:1].isupper() for name in expected):
            capital_particles += 1
        else:
            assert _names(paper.authors) == expected, view.citekey
        assert paper.year == view.year and paper.doi == view.doi.strip()
    if split_names:
        assert losses["names with a comma inside one part (read back split at it)"] >= split_names
    if capital_particles:
        assert losses["names with a capitalised particle (read back in the family name)"] >= capital_particles


def test_our_own_csl_json_comes_back_with_tags_and_notes(tmp_path: Path) -> None:
    bib = tmp_path / "a.bib"
    bib.write_text("@article{k1, title={A \\& B at 50\\%}, author={van Beethoven, Ludwig and {ACME Inc.}}, "
                   "journal={J}, year=2020, month=jun, pages={1--10}, eprint={2001.1}}\n", encoding="utf-8")
    library = _library(tmp_path, bib)
    (pid,) = library.papers
    library.set_tags(pid, ["to cite", "x;y"]) if hasattr(library, "set_tags") else None
    library.set_notes(pid, "line one\nline two") if hasattr(library, "set_notes") else None
    views = library.views([pid])
    out = tmp_path / "a.json"
    out.write_text(export_csl_json(views), encoding="utf-8")
    (item,) = json.loads(out.read_text())
    assert item["id"] == item["citation-key"] == "k1"
    assert item["title"] == "A & B at 50%"
    assert item["author"] == [{"family": "Beethoven", "given": "Ludwig", "non-dropping-particle": "van"}, {"literal": "ACME Inc."}]
    assert item["issued"] == {"date-parts": [[2020, 6]]} and item["page"] == "1-10"
    assert item["custom"]["reader-tui"]["fields"] == {"eprint": "2001.1"}
    back = read_csl_json(out)
    (paper,) = back.papers
    assert paper.title == "A & B at 50%" and [name_parts(a) for a in paper.authors] == item["author"]
    assert dict(paper.extra_fields)["eprint"] == "2001.1"
    if views[0].tags:
        assert back.annotations[paper.id]["tags"] == tuple(views[0].tags)
    from reader_tui.core.formats.bibtex.writer import export_bibtex

    library2 = Library.open(tmp_path / "lib2", seed=None)
    library2.import_papers(back.papers, back.annotations)
    text = export_bibtex(library2.views(list(library2.papers)))
    assert "title = {A \\& B at 50\\%}" in text and "month = jun" in text


def test_a_zotero_csl_json_export_keeps_every_variable(tmp_path: Path) -> None:
    """500 items as Zotero exports them (ids like "http://zotero.org/users/..", keys
    pinned in note, variables we have no BibTeX field for): read, then exported again,
    every item and variable is there."""
    items = []
    for i in range(500):
        items.append({
            "id": f"http://zotero.org/users/local/abc/items/K{i:05d}",
            "type": ["article-journal", "paper-conference", "book", "chapter", "report", "thesis", "webpage"][i % 7],
            "title": f"Study {i} of Things & Stuff",
            "container-title": "Journal of Things",
            "container-title-short": "J. Things",
            "page": f"{i}-{i + 9}",
            "volume": str(i % 40),
            "source": "DBLP",
            "author": [{"family": "Müller", "given": "Jörg"}, {"literal": "The Consortium"}],
            "issued": {"date-parts": [[1990 + i % 30, 1 + i % 12]]},
            "accessed": {"date-parts": [[2024, 5, 6]]},
            "DOI": f"10.1000/x{i}",
            "URL": f"https://example.org/{i}",
            "abstract": "Line one.\n\nLine two.",
            "note": f"Citation Key: mueller{i}\nSome other note" if i % 2 else "",
            "language": "en",
        })
    path = tmp_path / "zotero.json"
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    library = _library(tmp_path, path)
    views = library.views(list(library.papers))
    assert len(views) == 500
    again = json.loads(export_csl_json(views))
    for original, item in zip(items, again):
        for variable, value in original.items():
            if variable == "id":
                continue
            if variable == "note":
                value = value.replace(f"Citation Key: mueller{items.index(original)}\n", "") or None
                if value is None:
                    assert "note" not in item
                    continue
            assert item.get(variable) == value, (variable, item.get(variable), value)
        if original["note"]:
            assert item["id"] == item["citation-key"] == f"mueller{items.index(original)}"
        else:  # no key of the user's: Better BibTeX's, as Zotero with BBT would make it
            year = original["issued"]["date-parts"][0][0]
            assert item["id"] == item["citation-key"] == bbt_key(["Müller, Jörg"], original["title"], year)


def test_a_paper_is_exported_under_the_key_reader_tui_shows(tmp_path: Path) -> None:
    """A key the library made (a seed paper's `activereading2026`) is the key a note
    cites: CSL-JSON and RIS write it, as BibTeX does, not a Better BibTeX key of their own."""
    from reader_tui.core.model import Paper

    library = Library.open(tmp_path / "lib", seed=None)
    library.import_papers([Paper(id="p1", title="Active Reading: a framework", abstract="x", venue="ICLR 2026", year=2026)])
    views = library.views(["p1"])
    shown = views[0].citekey
    assert shown
    assert json.loads(export_csl_json(views))[0]["citation-key"] == shown
    assert f"ID  - {shown}\n" in export_ris(views)
