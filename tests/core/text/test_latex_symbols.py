"""The light LaTeX path reads a generated copy of pylatexenc's symbol macros, so that a
start need not import pylatexenc: the copy must be what pylatexenc gives now."""

from __future__ import annotations

import subprocess
import sys

from reader_tui.core.text import display
from reader_tui.core.text.latex_symbols import LATEX_SYMBOLS


def test_the_kept_symbol_table_is_what_the_installed_pylatexenc_renders() -> None:
    # Fails after a pylatexenc upgrade that renders a symbol differently: write the copy
    # again with `python -m reader_tui.core.text.latex_symbols`.
    assert LATEX_SYMBOLS == display.symbol_table()
    assert LATEX_SYMBOLS["alpha"] == "α" and LATEX_SYMBOLS["ss"] == "ß" and "today" not in LATEX_SYMBOLS


def test_light_latex_renders_without_importing_pylatexenc_and_the_parser_still_comes_when_needed() -> None:
    code = (
        "import sys\n"
        "from reader_tui.core.text.display import styled_segments\n"
        "styled_segments(r'We use \\alpha-divergences and \\textbf{bold} ideas --- 5\\% better.')\n"
        "assert 'pylatexenc' not in sys.modules, 'the light path imported pylatexenc'\n"
        "styled_segments(r'An unbalanced {\\bf group \\frac{a}{b}')\n"
        "assert 'pylatexenc' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
