"""The main screen's footer rebuilds its keys only when they change (each rebuild costs
tens of milliseconds that a key pressed meanwhile waits for)."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from reader_tui.core.library.library import Library
from reader_tui.tui.app import create_app
from tui_support import settle

SIZE = (120, 40)


async def test_footer_kept_when_keys_same_and_rebuilt_when_they_change(library: Library) -> None:
    app = create_app(library)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        keys = list(app.screen.query(FooterKey))
        assert any(key.description == "Read" for key in keys)

        app.screen.refresh_bindings()  # what Textual does on every focus change
        app.screen.refresh_bindings()
        await pilot.pause()
        assert list(app.screen.query(FooterKey)) == keys  # the same widgets: no rebuild

        app.screen._bindings.bind("f9", "app.bell", "Ring the bell")
        app.screen.refresh_bindings()
        await pilot.pause()
        assert list(app.screen.query(FooterKey)) != keys
        assert any(key.description == "Ring the bell" for key in app.screen.query(FooterKey))
