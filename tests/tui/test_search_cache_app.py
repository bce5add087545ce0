"""The app caches its search index per library, so the next start has ranked search at
once; a cache from another catalog is never used."""

from __future__ import annotations

from reader_tui.core.library.library import Library
from reader_tui.core.model import Paper
from reader_tui.core.paths import store_cache_path
from reader_tui.tui.app import create_app
from reader_tui.tui.widgets.paper_list import PaperList
from tui_support import settle


async def search_ids(library: Library, query: str) -> list[str]:
    app = create_app(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("slash", *query)
        await settle(app, pilot)
        return list(app.screen.query_one(PaperList).ids)


async def test_second_start_uses_the_cache_and_a_new_paper_invalidates_it(library: Library) -> None:
    cache = store_cache_path(library.files.folder, "search", ".idx")
    first = await search_ids(library, "molecules")
    assert first[:1] == ["p-graphs"]
    assert cache.exists()
    stamp = cache.stat().st_mtime_ns
    assert await search_ids(library, "molecules") == first
    assert cache.stat().st_mtime_ns == stamp  # loaded, not rebuilt

    library.import_papers([Paper(id="p-new", title="Molecules in Motion", year=2026)])
    assert "p-new" in (await search_ids(library, "molecules"))[:2]
    assert cache.stat().st_mtime_ns != stamp  # the catalog changed: rebuilt and rewritten
