"""Where things live: the user's store, the bundled seed lists and stylesheets.

The store's folder comes from `--db`, else `READER_TUI_DB`, else the platform's user
data folder (platformdirs). Bundled files are found through package resources, so a
plain (non-editable) `pip install .` works: the wheel carries them under
`reader_tui/_bundled/`. A source checkout has them at the top level instead.
"""

from __future__ import annotations

import hashlib
import os
from importlib import resources
from pathlib import Path

APP_NAME = "reader-tui"
DB_ENV = "READER_TUI_DB"
CACHE_ENV = "READER_TUI_CACHE"
DEFAULT_SEED = "iclr2026.txt"


def default_db_path() -> Path:
    """The store folder used when neither `--db` nor READER_TUI_DB says otherwise."""
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False) / "library"


def resolve_db_path(cli_value: str | os.PathLike[str] | None) -> Path:
    """The store folder: `--db` wins over READER_TUI_DB, which wins over the default."""
    if cli_value:
        return Path(cli_value).expanduser()
    env = os.environ.get(DB_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    return default_db_path()


def bundled_dir(name: str) -> Path:
    """The folder of bundled `seeds` or `styles`, installed or in a source checkout."""
    installed = resources.files("reader_tui").joinpath("_bundled", name)
    if installed.is_dir():
        return Path(str(installed))
    checkout = Path(__file__).resolve().parents[2] / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"reader-tui is installed without its {name}/ folder")


def default_seed_path() -> Path:
    """The seed list a new library starts with."""
    return bundled_dir("seeds") / DEFAULT_SEED


def styles_dir() -> Path:
    """The folder of the app's .tcss stylesheets."""
    return bundled_dir("styles")


def store_cache_path(store_folder: Path, kind: str, suffix: str) -> Path:
    """Where a derived index of the store in `store_folder` is cached: one file per store
    and `kind`, under the user cache folder (READER_TUI_CACHE overrides it, for tests and
    sandboxes). Deleting it is always safe: it is rebuilt."""
    key = hashlib.blake2b(str(Path(store_folder).resolve()).encode(), digest_size=8).hexdigest()
    return app_cache_path(kind) / f"{key}{suffix}"


def app_cache_path(name: str) -> Path:
    """`name` in the user cache folder (READER_TUI_CACHE overrides it, for tests and
    sandboxes)."""
    override = os.environ.get(CACHE_ENV, "").strip()
    if override:
        return Path(override).expanduser() / name
    from platformdirs import user_cache_path

    return user_cache_path(APP_NAME, appauthor=False) / name
