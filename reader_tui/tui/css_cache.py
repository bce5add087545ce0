"""Textual's parsed stylesheets, kept from one start to the next.

Each start, Textual parses the CSS of every widget class it styles: the app's .tcss files
and some twenty DEFAULT_CSS blocks, about 30 ms of the start. Rules parsed from the same
text with the same theme variables by the same Textual are the same rules, so they are
kept in one file in the user cache folder and read back (about 3 ms) instead.

Anything wrong with that file (missing, cut short, written by another Textual or Python)
means parsing as before: the cache can make a start faster, never change what it shows.
It is a pickle, as Textual's rule objects are not JSON; it lives in the user's own cache
folder, which nobody but the user can write (as their site-packages).

The rules are also kept in memory for the process, which only matters where a process
makes many apps (the tests do).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

import textual
from textual.css import model
from textual.css.model import RuleSet

from reader_tui.core.paths import app_cache_path
from reader_tui.tui.textual_patches import ParsedRulesHook, stylesheet_variables

FORMAT = 2
"""Bump when what is stored changes shape."""


def _textual_fingerprint() -> tuple:
    """What identifies the installed Textual cheaply: its files' sizes and times (its
    `__version__` reads the package metadata, some 18 ms of a start). Another install
    changes them, and the rules it would unpickle are then not read."""
    stats = [os.stat(module.__file__) for module in (textual, model)]  # type: ignore[arg-type]
    return (FORMAT, sys.version_info[:2], *((stat.st_size, stat.st_mtime_ns) for stat in stats))


RulesKey = tuple[str, tuple[str, str], bool, int, str, bytes]
"""Everything a stylesheet's parse of one source reads (`ParsedRulesHook`): the CSS, where it came from, whether it is
a widget's default CSS, its tie breaker and scope, and the `variables_digest`."""

_parsed: dict[RulesKey, list[RuleSet]] = {}
"""Every rule list parsed or read in this process."""
_used: set[RulesKey] = set()
"""The keys this process's stylesheets asked for: what `save` keeps (the rules of themes
tried once and left, or of widgets no longer shown, are not carried from file to file)."""
_in_file: dict[Path, frozenset[RulesKey]] = {}
"""The keys each cache file held when read (or last written): what `save` need not redo."""


def default_path() -> Path:
    return app_cache_path("textual-css.pickle")


def variables_digest(variables: dict[str, str]) -> bytes:
    """The theme variables' part of a key: they are substituted as the CSS is parsed."""
    return hashlib.blake2b(repr(sorted(variables.items())).encode("utf-8", "surrogatepass"), digest_size=16).digest()


def load(path: Path) -> None:
    """Read the rules `path` holds into memory (once per file and process)."""
    if path in _in_file:
        return
    _in_file[path] = frozenset()
    try:
        with open(path, "rb") as file:
            fingerprint, stored = pickle.load(file)
    except Exception:  # missing, cut short or foreign: parse as if there were no file
        return
    if fingerprint != _textual_fingerprint() or not _well_formed(stored):
        return
    for key, rules in stored.items():
        _parsed.setdefault(key, rules)
    _in_file[path] = frozenset(stored)


def _well_formed(stored: object) -> bool:
    """A dict of keys to lists of rule sets, as `save` writes: a file that unpickles to
    anything else (damaged in a way pickle did not notice) is not handed to Textual."""
    return isinstance(stored, dict) and all(
        isinstance(key, tuple) and len(key) == 6 and isinstance(rules, list)
        and all(isinstance(rule, RuleSet) for rule in rules)
        for key, rules in stored.items()
    )


def save(path: Path) -> None:
    """Write the rules this process used to `path`, unless it holds just those; whole or
    not at all (a file cut short is read as none). A cache that cannot be written is
    only a slower start."""
    snapshot = {key: _parsed[key] for key in _used if key in _parsed}
    if not snapshot or _in_file.get(path) == frozenset(snapshot):
        return
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temporary, "wb") as file:
            pickle.dump((_textual_fingerprint(), snapshot), file, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)
    except Exception:  # a full disk, or rules pickle cannot hold: a cache never stops a quit
        with suppress(OSError):
            temporary.unlink(missing_ok=True)
        return
    _in_file[path] = frozenset(snapshot)


class CachedStylesheet(ParsedRulesHook):
    """A Stylesheet that takes parsed rules from the cache and parses only what it lacks."""

    _digested: dict[str, str] | None = None
    _digest = b""

    def parse_source(self, source: tuple, parse: Callable[[], list[RuleSet]]) -> list[RuleSet]:
        variables = stylesheet_variables(self)
        if self._digested is not variables:  # a new theme: once per theme, not per source
            self._digested, self._digest = variables, variables_digest(variables)
        key = (*source, self._digest)
        _used.add(key)
        rules = _parsed.get(key)
        if rules is None:
            rules = parse()
            if not any(rule.errors for rule in rules):  # errors are reported afresh each time
                _parsed[key] = rules
        return rules

    def reparse(self) -> None:
        """After a theme change. Textual's own parses every source again, in a new plain
        Stylesheet so that an error leaves this one as it was (and on mount it does so
        for the theme the app already had). `parse` also changes nothing here until every
        source has parsed, and takes what it can from the cache."""
        self.parse()
