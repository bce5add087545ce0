"""Every accent and letter command a .bib holds (the forms DBLP writes: `{\\c{c}}`,
`{\\'{e}}`, `\\"\\i`, `{\\o}`, `{\\ss}`, `{\\L}`...) is shown as its letter and found by
the plain letter: `Goncalves` and `Gonçalves` find `Gon{\\c{c}}alves`, in titles and
authors alike."""

from __future__ import annotations

import pytest

from reader_tui.core.model import Annotation, Paper, PaperView
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.text.display import search_text, to_display
from reader_tui.core.text.tokens import fold, tokens

# (source as a .bib writes it, the word a user types, the word as displayed)
FORMS = [
    ("Gon{\\c{c}}alves", "Goncalves", "Gonçalves"),
    ("Gon\\c{c}alves", "Goncalves", "Gonçalves"),
    ("Gon\\c calves", "Goncalves", "Gonçalves"),
    ("Ka{\\v{c}}er", "Kacer", "Kačer"),
    ("Ko{\\v s}ir", "Kosir", "Košir"),
    ('G{\\"{o}}del', "Godel", "Gödel"),
    ("Ren{\\'{e}}", "Rene", "René"),
    ("Ren\\'{e}", "Rene", "René"),
    ("Mart{\\'{\\i}}nez", "Martinez", "Martínez"),
    ('Ana\\"\\i s', "Anais", "Anaïs"),
    ('Ana{\\"\\i}s', "Anais", "Anaïs"),
    ("Bj{\\o}rn", "Bjorn", "Bjørn"),
    ("Stra{\\ss}e", "Strasse", "Straße"),
    ("Stra\\ss e", "Strasse", "Straße"),
    ("H\\aa kon", "Hakon", "Håkon"),
    ("H{\\aa}kon", "Hakon", "Håkon"),
    ("Y{\\i}lmaz", "Yilmaz", "Yılmaz"),
    ("{\\L}ukasz", "Lukasz", "Łukasz"),
    ("Pi\\k{a}tek", "Piatek", "Piątek"),
    ("Erd\\H{o}s", "Erdos", "Erdős"),
    ("M\\={a}ori", "Maori", "Māori"),
    ("\\.{Z}ukowski", "Zukowski", "Żukowski"),
    ("Do\\u{g}an", "Dogan", "Doğan"),
    ("K\\r{u}la", "Kula", "Kůla"),
    ("{\\AE}lfric", "AElfric", "Ælfric"),
]
IDS = [source for source, _, _ in FORMS]


def view(pid: str, title: str, authors: tuple[str, ...] = ()) -> PaperView:
    return PaperView(Paper(id=pid, title=title, authors=authors, year=2020), Annotation())


def build(source: str) -> SearchIndex:
    return SearchIndex.build([
        view("title", f"On {source} and tied~words--dashes"),
        view("author", "Unrelated study of graphs", (f"{source}, Ana", "Lovelace, Ada")),
        view("other", "Another paper on trees", ("Turing, Alan",)),
    ])


@pytest.mark.parametrize(("source", "plain", "shown"), FORMS, ids=IDS)
def test_display_renders_the_letter(source: str, plain: str, shown: str) -> None:
    assert to_display(source) == shown
    assert to_display(f"{source}, Ana") == f"{shown}, Ana"


@pytest.mark.parametrize(("source", "plain", "shown"), FORMS, ids=IDS)
def test_search_finds_titles_and_authors_by_the_plain_and_the_accented_word(source: str, plain: str,
                                                                           shown: str) -> None:
    index = build(source)
    for query in (plain, shown, plain.lower()):
        found = {hit.id for hit in index.search(query)}
        assert found == {"title", "author"}, query


@pytest.mark.parametrize(("source", "plain", "shown"), FORMS, ids=IDS)
def test_tokens_read_the_form_as_one_word(source: str, plain: str, shown: str) -> None:
    # The tokeniser reads queries and abstracts (which are not rendered) by itself.
    assert tokens(source) == tokens(search_text(source)) == tokens(shown) == [plain.lower()]
    assert fold(shown) == plain


def test_ties_and_dashes_split_words_in_search_and_display() -> None:
    index = build("x")
    assert [hit.id for hit in index.search('"tied words dashes"')] == ["title"]
    assert to_display("tied~words--dashes") == "tied words\u2013dashes"


def test_the_tokeniser_reads_letter_commands_as_pylatexenc_does() -> None:
    # tokens() reads abstracts and queries without rendering them; its table of letter
    # commands must be the one the display (pylatexenc) uses.
    from reader_tui.core.text import display as text_module
    from reader_tui.core.text import tokens as tokens_module

    assert set(tokens_module._LETTER_COMMANDS) == text_module._LETTER_COMMANDS
    for name, letter in tokens_module._LETTER_COMMANDS.items():
        assert to_display(f"{{\\{name}}}") == letter
