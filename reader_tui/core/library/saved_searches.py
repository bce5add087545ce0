"""Saved searches: a name for a query ("to-read llm" -> "status:to-read tag:llm"), kept
with the library in `library.settings["saved_searches"]` as {name: query}.

Names are unique case-insensitively: saving "To-read LLM" replaces "to-read llm" and
takes the new spelling. The query is stored as typed; running it is the search's job.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol

SETTING = "saved_searches"
MAX_NAME = 80


class SavedSearch(NamedTuple):
    """A named query."""

    name: str
    query: str


class _Settings(Protocol):  # what of `Library` this module needs
    settings: dict[str, Any]

    def set_setting(self, key: str, value: Any) -> None: ...


def list_searches(library: _Settings) -> list[SavedSearch]:
    """Every saved search, sorted by name (case-insensitively)."""
    return sorted(
        (SavedSearch(name, query) for name, query in _stored(library).items()),
        key=lambda s: (s.name.casefold(), s.name),
    )


def get_search(library: _Settings, name: str) -> SavedSearch | None:
    """The saved search called `name` (any case), or None."""
    key = _clean_name(name).casefold()
    for stored, query in _stored(library).items():
        if stored.casefold() == key:
            return SavedSearch(stored, query)
    return None


def save_search(library: _Settings, name: str, query: str) -> SavedSearch:
    """Save `query` under `name`, replacing a search of the same name in any case.

    Raises ValueError, with a message for the user, for an empty or overlong name or an
    empty query.
    """
    name = _clean_name(name)
    if not name:
        raise ValueError("a saved search needs a name")
    if len(name) > MAX_NAME:
        raise ValueError(f"a saved search name is at most {MAX_NAME} characters")
    query = query.strip()
    if not query:
        raise ValueError("there is no search to save: type a query or set a filter first")
    searches = {k: v for k, v in _stored(library).items() if k.casefold() != name.casefold()}
    searches[name] = query
    library.set_setting(SETTING, searches)
    return SavedSearch(name, query)


def rename_search(library: _Settings, old: str, new: str) -> SavedSearch:
    """Give the saved search `old` the name `new`. Raises ValueError when `old` does not
    exist, `new` is empty, or another search already has the name `new`."""
    found = get_search(library, old)
    if found is None:
        raise ValueError(f"no saved search is called {_clean_name(old)!r}")
    clash = get_search(library, new)
    if clash is not None and clash.name.casefold() != found.name.casefold():
        raise ValueError(f"a saved search is already called {clash.name!r}")
    if not _clean_name(new):
        raise ValueError("a saved search needs a name")
    delete_search(library, found.name)
    return save_search(library, new, found.query)


def delete_search(library: _Settings, name: str) -> bool:
    """Forget the saved search called `name` (any case). True when there was one."""
    key = _clean_name(name).casefold()
    stored = _stored(library)
    searches = {k: v for k, v in stored.items() if k.casefold() != key}
    if len(searches) == len(stored):
        return False
    library.set_setting(SETTING, searches)
    return True


def _clean_name(name: str) -> str:
    # One line, single spaces: the name is shown in a one-line side list and the palette.
    return " ".join(str(name).split())


def _stored(library: _Settings) -> dict[str, str]:
    value = library.settings.get(SETTING)
    if not isinstance(value, dict):
        return {}
    # A hand-edited or foreign settings file may hold anything: keep what makes sense.
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str) and k.strip()}
