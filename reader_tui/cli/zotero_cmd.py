"""`reader-tui import zotero`: the items, tags, notes and keys of the running Zotero.

The library's version that Zotero reported last is kept in the settings (per address),
so the next import asks only for what changed since (`--all` reads everything again).
"""

from __future__ import annotations

import argparse
import sys

from ..core.library.library import Library
from ..core.text.words import counted

SETTING = "zotero_versions"


def run_zotero_import(library: Library, args: argparse.Namespace) -> int:
    from ..core.formats.zotero import ZoteroUnavailable, fetch_items, read_zotero_items
    from ..core.text.display import sanitize

    url = args.zotero_url
    versions = library.settings.get(SETTING)
    versions = dict(versions) if isinstance(versions, dict) else {}
    since = None if args.zotero_all else versions.get(url)
    try:
        fetched = fetch_items(url, since=since if isinstance(since, int) else None)
    except ZoteroUnavailable as error:
        print(f"reader-tui: {sanitize(str(error))}", file=sys.stderr)
        return 1
    result = read_zotero_items(fetched)
    changed = f" changed since version {since}" if isinstance(since, int) else ""
    if not result.papers:
        print(f"Zotero: no items{changed}")
    elif args.dry_run:
        summary = library.plan_import(result.papers)
        print(f"dry run, nothing written: {counted(len(result.papers), 'Zotero item')}{changed}: {summary}")
    else:
        summary = library.import_papers(result.papers, result.annotations, {})
        print(f"{counted(len(result.papers), 'Zotero item')}{changed} read: {summary}")
        for line in summary.details([result.label(i) for i in range(len(result.papers))]):
            print(f"reader-tui: {sanitize(line)}", file=sys.stderr)
    if not args.dry_run and fetched.version is not None and not library.read_only:
        library.set_setting(SETTING, {**versions, url: fetched.version})
    return 0
