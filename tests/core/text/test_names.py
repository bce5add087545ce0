"""The one author splitter: BibTeX's rule, used by every reader and editor of author lists."""

from hypothesis import given
from hypothesis import strategies as st

from reader_tui.core.text.names import join_authors, split_authors


def test_bibtex_rule():
    assert split_authors("A and B AND {C and D}") == ("A", "B", "{C and D}")
    assert split_authors("{Barnes and Noble} and Anderson, Sandy") == ("{Barnes and Noble}", "Anderson, Sandy")
    assert split_authors("Vélez, 論文 and\tשלום  🎉") == ("Vélez, 論文", "שלום  🎉")
    assert split_authors(" \n ") == ()


_NAME = st.text(alphabet="abcdnXYZ é論🎉,.-", min_size=1).map(str.strip).filter(
    lambda n: n and "and" not in n.lower().split()
)


@given(st.lists(_NAME | _NAME.map(lambda n: "{" + n + " and " + n + "}"), max_size=5))
def test_join_then_split_gives_the_names_back(names):
    assert split_authors(join_authors(names)) == tuple(names)


def test_every_caller_uses_it():
    """The readers, the CLI's `edit --authors` and the edit dialog split with this function."""
    import inspect

    from reader_tui.cli import papers
    from reader_tui.core.formats import csv_table
    from reader_tui.core.formats.bibtex import reader
    from reader_tui.tui.dialogs import edit_dialog

    assert reader.split_authors is split_authors
    assert csv_table.bibtex_names is split_authors
    assert edit_dialog.split_authors is split_authors
    assert "core.text.names import split_authors" in inspect.getsource(papers.cmd_edit)
