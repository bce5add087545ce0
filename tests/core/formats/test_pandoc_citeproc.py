"""The real client: pandoc's citeproc renders a document citing every paper of a CSL-JSON
export, without a warning, with every author's family name and the year in the
references (issue 37).

Skipped where pandoc is not installed (Debian: `apt-get install pandoc`; .ci/run
installs it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from reader_tui.core.formats.csl_json import export_csl_json
from reader_tui.core.formats.detect import read_any
from reader_tui.core.library.library import Library

PANDOC = shutil.which("pandoc")
CORPUS = Path(__file__).parents[2] / "fixtures" / "bib_corpus"
FILES = sorted(CORPUS.glob("*.bib"))
#: pandoc's default style (Chicago author-date) names the first 7 of more than 10 authors
ET_AL_MIN, ET_AL_FIRST = 11, 7

pytestmark = pytest.mark.skipif(PANDOC is None, reason="pandoc is not installed (Debian: apt-get install pandoc)")


def render(items_json: str, folder: Path, to: str = "plain") -> tuple[str, str, list[dict]]:
    """pandoc --citeproc over a Markdown document citing every item: (output, stderr, items)."""
    items = json.loads(items_json)
    (folder / "refs.json").write_text(items_json, encoding="utf-8")
    # @{key}: pandoc's form for a key with any character in it
    cites = "\n\n".join(f"Item {n} [@{{{item['id']}}}]." for n, item in enumerate(items))
    (folder / "doc.md").write_text(f"# Reading\n\n{cites}\n\n# References\n", encoding="utf-8")
    done = subprocess.run(
        [PANDOC, "doc.md", "--citeproc", "--bibliography", "refs.json", "-t", to, "--wrap=none"],
        cwd=folder, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr, items


def _who(name: dict) -> str:
    return name.get("family") or name.get("literal") or ""


def check_references(output: str, items: list[dict]) -> list[str]:
    """What of each item's authors (family names) and year the references lack."""
    missing = []
    references = output.split("References", 1)[-1]
    for item in items:
        names = item.get("author") or item.get("editor") or []
        shown = names[:ET_AL_FIRST] if len(names) >= ET_AL_MIN else names
        for name in shown:
            if _who(name) and _who(name) not in references:
                missing.append(f"{item['id']}: {_who(name)}")
        issued = item.get("issued", {})
        year = str(issued["date-parts"][0][0]) if "date-parts" in issued else issued.get("literal", "")
        if year and year not in references:
            missing.append(f"{item['id']}: {year}")
    return missing


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_pandoc_citeproc_renders_every_paper_of_a_corpus_file(path: Path, tmp_path: Path) -> None:
    library = Library.open(tmp_path / "lib", seed=None)
    result = read_any(path)
    library.import_papers(result.papers, result.annotations)
    text = export_csl_json(library.views(list(library.papers)))
    output, stderr, items = render(text, tmp_path)
    assert stderr == ""  # no "[WARNING] Citeproc: citation x not found", no other warning
    assert not [i["id"] for i in items if f"{i['id']}?" in output]  # citeproc's mark for a key it did not find
    assert check_references(output, items) == []


def test_a_markdown_note_citing_three_papers_renders_to_html_with_its_references(tmp_path: Path) -> None:
    bib = tmp_path / "three.bib"
    bib.write_text(
        "@inproceedings{vaswani2017, title={Attention Is All You Need}, author={Vaswani, Ashish and Shazeer, Noam},"
        " booktitle={NeurIPS}, year=2017}\n"
        "@article{he2016, title={Deep Residual Learning}, author={Kaiming He and Xiangyu Zhang}, journal={CVPR}, year=2016}\n"
        "@misc{, title={Graph Networks}, author={M{\\\"u}ller, J{\\\"o}rg}, year=2020, howpublished={arXiv}}\n",
        encoding="utf-8",
    )
    library = Library.open(tmp_path / "lib", seed=None)
    result = read_any(bib)
    library.import_papers(result.papers, result.annotations)
    output, stderr, items = render(export_csl_json(library.views(list(library.papers))), tmp_path, to="html")
    assert stderr == ""
    assert [i["id"] for i in items][:2] == ["vaswani2017", "he2016"]
    assert 'id="refs"' in output and output.count('class="csl-entry"') == len(items)
    for family, year in (("Vaswani", "2017"), ("He", "2016"), ("Müller", "2020")):
        assert family in output and year in output
