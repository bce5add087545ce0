"""The parsed-CSS cache (tui/css_cache.py): a start reads the rules the last one parsed,
they are the very rules a parse gives, and a bad cache file only means parsing again."""

from __future__ import annotations

import asyncio
import pickle
import threading
from pathlib import Path

import pytest
from textual.css.stylesheet import Stylesheet

from reader_tui.core.library.library import Library
from reader_tui.tui import css_cache
from reader_tui.tui.app import create_app
from tui_support import make_library


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> list[tuple]:
    """css_cache as a new process finds it (nothing in memory); returns the list of the
    parses that reach Textual's own parser."""
    forget_memory(monkeypatch)
    parses: list[tuple] = []
    original = Stylesheet._parse_rules

    def counted(self, css, read_from, *args, **kwargs):
        parses.append(read_from)
        return original(self, css, read_from, *args, **kwargs)

    monkeypatch.setattr(Stylesheet, "_parse_rules", counted)
    return parses


def forget_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the next process starts with: only the file."""
    monkeypatch.setattr(css_cache, "_parsed", {})
    monkeypatch.setattr(css_cache, "_used", set())
    monkeypatch.setattr(css_cache, "_in_file", {})


async def started_rules(library: Library) -> list[tuple]:
    """The app's rules once the main screen is up, in order: selectors, declarations,
    origin and priority (what styling reads of them), as text (Textual's rule objects do
    not compare by value)."""
    app = create_app(library)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        rules = [(repr(rule.selector_set), repr(sorted(rule.styles.get_rules().items())), sorted(rule.selector_names),
                  rule.is_default_rules, rule.tie_breaker, sorted(rule.pseudo_classes)) for rule in app.stylesheet.rules]
        path = app.css_cache_path
    css_cache.save(path)
    return rules


async def test_a_second_start_reads_the_rules_the_first_parsed(
        library: Library, fresh_process: list[tuple], monkeypatch: pytest.MonkeyPatch) -> None:
    first = await started_rules(library)
    assert len(fresh_process) >= 10  # the app's files and the widgets' DEFAULT_CSS
    assert css_cache.default_path().is_file()
    forget_memory(monkeypatch)
    fresh_process.clear()
    second = await started_rules(library)
    assert fresh_process == []  # nothing parsed: all of it came from the file
    assert second == first  # and the same rules, one for one


@pytest.fixture(scope="module")
def good_start(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[tuple], bytes]:
    """The rules of a start that parsed everything, and the cache file it saved: what each
    bad file below is made from and must give again. (Each case made its own: one start
    more a case, the same rules and file every time.)"""
    folder = tmp_path_factory.mktemp("good-start")
    with pytest.MonkeyPatch.context() as m:
        for name in ("HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            m.setenv(name, str(folder / "home"))
        m.setenv("READER_TUI_CACHE", str(folder / "cache"))
        m.setenv("READER_TUI_BACKGROUND_INDEX", "0")
        forget_memory(m)
        library = make_library(folder / "lib")
        try:
            rules = asyncio.run(started_rules(library))
        finally:
            library.close()
        saved = css_cache.default_path().read_bytes()
    return rules, saved


@pytest.mark.parametrize("content", [
    b"", b"not a pickle", b"\x80\x05\x95", None,
    # whole pickles of the right fingerprint holding the wrong things
    "rules not in a list", "a key that is no key",
])
async def test_a_bad_cache_file_means_parsing_again(
        library: Library, fresh_process: list[tuple], monkeypatch: pytest.MonkeyPatch, content: bytes | str | None,
        good_start: tuple[list[tuple], bytes]) -> None:
    good, saved = good_start
    path = css_cache.default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(saved)  # what a start with a fresh parse saved
    if content is None:  # a whole file, but another Textual's: its rules are not read
        monkeypatch.setattr(css_cache, "_textual_fingerprint", lambda: ("another textual",))
    elif isinstance(content, str):
        fingerprint, stored = pickle.loads(path.read_bytes())
        key, rules = next(iter(stored.items()))
        wrong = {key: "Screen { color: red; }"} if content == "rules not in a list" else {"key": rules}
        path.write_bytes(pickle.dumps((fingerprint, wrong)))
    else:
        path.write_bytes(content)
    forget_memory(monkeypatch)
    fresh_process.clear()
    assert await started_rules(library) == good
    assert len(fresh_process) >= 10
    forget_memory(monkeypatch)
    fresh_process.clear()
    assert await started_rules(library) == good  # the parse was saved again, whole
    assert fresh_process == []


async def test_a_cache_that_cannot_be_written_costs_nothing_but_time(
        library: Library, fresh_process: list[tuple], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("x", encoding="utf-8")
    monkeypatch.setenv("READER_TUI_CACHE", str(blocked))
    assert await started_rules(library)  # started, and saving said nothing
    assert not list(tmp_path.glob("**/*.tmp"))


async def test_a_saved_theme_costs_no_second_parse(
        tmp_path: Path, fresh_process: list[tuple], monkeypatch: pytest.MonkeyPatch) -> None:
    """Set on mount, a saved theme made the start parse every stylesheet twice: once for
    the default theme, once for the saved one."""
    plain = make_library(tmp_path / "plain")
    try:
        await started_rules(plain)
    finally:
        plain.close()
    parses_plain = len(fresh_process)
    forget_memory(monkeypatch)
    fresh_process.clear()
    themed = make_library(tmp_path / "themed")
    themed.set_setting("theme", "nord")
    try:
        app = create_app(themed)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.theme == "nord"
            assert app.stylesheet._variables["primary"] == app.get_theme("nord").primary
    finally:
        themed.close()
    assert len(fresh_process) == parses_plain


async def test_the_file_keeps_only_what_the_last_start_used(
        tmp_path: Path, fresh_process: list[tuple], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each theme tried adds its own parse of every stylesheet: the file is not let grow
    with every theme ever tried (each would cost the starts after it its reading)."""
    library = make_library(tmp_path / "lib")
    try:
        await started_rules(library)  # the default theme
        path = css_cache.default_path()
        default_keys = set(pickle.loads(path.read_bytes())[1])
        forget_memory(monkeypatch)
        library.set_setting("theme", "nord")
        await started_rules(library)
    finally:
        library.close()
    nord_keys = set(pickle.loads(path.read_bytes())[1])
    assert nord_keys and not nord_keys & default_keys
    assert {key[:5] for key in nord_keys} == {key[:5] for key in default_keys}  # the same sources


def test_rules_that_cannot_be_pickled_are_not_saved_and_do_not_raise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saving runs as the app quits: whatever the rules hold, it never raises."""
    forget_memory(monkeypatch)
    key = ("Screen {}", ("", "x"), False, 0, "", b"")
    css_cache._parsed[key] = [threading.Lock()]  # pickle raises TypeError for a lock
    css_cache._used.add(key)
    path = tmp_path / "cache" / "textual-css.pickle"
    css_cache.save(path)
    assert not path.exists() and not list(path.parent.glob("*.tmp"))
