"""The main screen's actions that open a dialog: tags, filter, sort, edit, export, help,
and the BibTeX copy. The dialogs only collect a choice; the callbacks here hand it to
the Library (or to the screen's list state), so the core does the work."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from reader_tui.core.search.sorting import SortKey
from reader_tui.core.text.display import one_line

if TYPE_CHECKING:
    from reader_tui.tui.screens.main_screen import MainScreen

_Base = object


class MainActions(_Base):
    """Mixed into `MainScreen`: everything here runs on the UI thread."""

    def action_edit_tags(self: MainScreen) -> None:
        from reader_tui.tui.dialogs.tag_editor import TagEditor

        ids = self.targets()
        if not ids:
            return
        views = self.library.views(ids)
        common = [t for t in views[0].tags if all(t.casefold() in {x.casefold() for x in v.tags} for v in views[1:])]
        known = self.library.all_tags()
        suggestions = self.suggest_tags_for(ids[0]) if len(ids) == 1 else sorted(known, key=lambda t: -known[t])[:8]
        editor = TagEditor([v.title for v in views], common, known, suggestions)

        def apply(edit) -> None:
            if edit is None:
                return
            try:
                self.library.retag(ids, add=edit.add, remove=edit.remove)
            except ValueError as error:
                self.notify(str(error), severity="error", markup=False)

        self.app.push_screen(editor, apply)

    def action_filter(self: MainScreen) -> None:
        from reader_tui.tui.dialogs.filter_dialog import FilterDialog

        def apply(choice) -> None:
            if choice is None:
                return
            self.list_filter = choice
            self.refilter()

        self.app.push_screen(FilterDialog(self.library.all_tags(), self.list_filter), apply)

    def action_sort(self: MainScreen) -> None:
        from reader_tui.tui.dialogs.sort_dialog import SortDialog

        def apply(key: SortKey | None) -> None:
            if key is None:
                return
            self.sort_key = key
            self.library.set_setting("sort", {"field": key.field, "reverse": key.reverse})
            self.refilter()

        self.app.push_screen(SortDialog(self.sort_key or SortKey()), apply)

    def action_edit_paper(self: MainScreen) -> None:
        from reader_tui.tui.dialogs.edit_dialog import EditDialog

        pid = self.paper_list.current_id
        if pid is None:
            return

        def apply(changes: dict | None) -> None:
            if not changes:
                return
            try:
                self.library.edit(pid, **changes)
            except ValueError as error:
                self.notify(str(error), severity="error", markup=False)
                return
            if {"title", "authors"} & changes.keys():
                if self.index is not None:
                    self.index.add([self.library.view(pid)])  # an edited title is searchable at once
                self.app.indexes_stale = True  # the caches are rebuilt as the app exits

        self.app.push_screen(EditDialog(self.library.view(pid), self.library.citekeys()), apply)

    def action_export(self: MainScreen) -> None:
        from reader_tui.tui.dialogs.export_dialog import ExportDialog

        papers = self.paper_list
        marked = [pid for pid in papers.ids if pid in papers.marked]
        scopes = {"marked": marked, "filter": list(papers.ids), "all": list(self.library.papers)}
        label = self.status_bar_description()

        def apply(request) -> None:
            if request is not None:
                self._export(request, scopes[request.scope])

        dialog = ExportDialog(len(marked), len(papers.ids), len(self.library.papers), filter_label=label)
        self.app.push_screen(dialog, apply)

    @work(thread=True, group="export", exit_on_error=False)
    def _export(self: MainScreen, request, ids: list[str]) -> None:
        # Rendering thousands of entries takes seconds: off the UI thread; the result is
        # reported through the app (call_from_thread), never by touching widgets here.
        from reader_tui.core.formats.bibtex.writer import export_bibtex
        from reader_tui.core.formats.markdown import export_markdown
        from reader_tui.core.formats.write import write_export
        from reader_tui.tui.clipboard import copy_text

        views = self.library.views(ids)
        if request.format == "bibtex":
            text = export_bibtex(views, abstract=request.abstract)
        else:
            text = export_markdown(views)
        what = f"{len(views)} paper{'s' if len(views) != 1 else ''}"
        notify = self.app.call_from_thread
        if request.to_clipboard or request.path is None:
            how = notify(copy_text, self.app, text)
            notify(self.notify, f"Copied {what} to the {how}", markup=False)
            return
        try:
            write_export(text, request.path, force=request.overwrite)
        except OSError as error:
            notify(self.notify, f"Export failed: {error}", severity="error", markup=False)
            return
        notify(self.notify, f"Exported {what} to {request.path}", markup=False)

    def action_copy_bibtex(self: MainScreen) -> None:
        from reader_tui.core.formats.bibtex.writer import entry_for
        from reader_tui.tui.clipboard import copy_text

        ids = self.targets()
        if not ids:
            return
        text = "\n".join(entry_for(view) for view in self.library.views(ids))
        how = copy_text(self.app, text)
        what = one_line(self.library.view(ids[0]).title, 50) if len(ids) == 1 else f"{len(ids)} papers"
        self.notify(f"Copied BibTeX of {what} to the {how}", markup=False)

    def action_copy_cites(self: MainScreen) -> None:
        """Copy `\\cite{key1,key2}` for the marked papers (or the current one)."""
        from reader_tui.tui.clipboard import copy_text

        ids = self.targets()
        if not ids:
            return
        text = "\\cite{" + ",".join(view.citekey for view in self.library.views(ids)) + "}"
        how = copy_text(self.app, text)
        self.notify(f"Copied {text} to the {how}", markup=False)

    def action_import_file(self: MainScreen) -> None:
        """Ask for a file and import it (the dialog runs the import and reports)."""
        from reader_tui.tui.dialogs.import_dialog import ImportDialog

        self.app.push_screen(ImportDialog(self.library))

    def action_help(self: MainScreen) -> None:
        from reader_tui.tui.screens.help_screen import HelpScreen

        self.app.push_screen(HelpScreen())
