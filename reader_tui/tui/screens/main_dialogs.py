"""What the main screen's keys that open a dialog or a screen do: filter, sort, "more
like tag", tags, edit, export, import, triage, stats, reviews and help.

Functions, not a mixin: each takes the screen that asks (to push the dialog and notify)
and reads from it the papers it is about. The dialogs only collect a choice; the
callbacks here hand it to the Library (or the browser), so the core does the work.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from reader_tui.core.library.library import Library

EXPORT_SETTING = "export"
"""The library setting holding the export dialog's last format, destination and path."""


def choose_filter(screen: Any) -> None:
    """`f`: ask for a filter; the browser shows what it lets through."""
    from reader_tui.tui.dialogs.filter_dialog import FilterDialog

    library, browser = screen.library, screen.browser

    def apply(choice) -> None:
        if choice is not None:
            browser.set_filter(choice)

    screen.app.push_screen(FilterDialog(library.all_tags(), browser.list_filter), apply)


def choose_sort(screen: Any) -> None:
    """`s`: ask for an order; the browser shows the list in it and remembers it."""
    browser = screen.browser

    def apply(key) -> None:
        if key is not None:
            browser.set_order(key)

    screen.app.push_screen(browser.order.dialog(scores=browser.paper_list.show_scores), apply)


def more_like_tag(screen: Any) -> None:
    """Ask for a tag; the browser ranks the list by a model of that tag's papers."""
    from reader_tui.core.search.sorting import SortKey
    from reader_tui.tui.dialogs.tag_picker import TagPicker

    browser, tags = screen.browser, screen.library.all_tags()
    if not tags:
        screen.say("more like tag: no paper is tagged yet (t tags the current paper)")
        return

    def apply(tag: str | None) -> None:
        if tag is not None:
            browser.set_order(SortKey("for-you", tag=tag))

    screen.app.push_screen(TagPicker(tags, browser.order.tag), apply)


def edit_tags(screen: Any) -> None:
    """`t`: ask for tags to add and remove on the papers (the related index suggests some
    for one paper)."""
    from reader_tui.tui.dialogs.tag_editor import TagEditor
    from reader_tui.tui.screens.main_papers import say_targets, targets

    library, ids, suggest = screen.library, targets(screen), screen.side.related.suggest_tags_for
    say_targets(screen, "tags", ids)
    if not ids:
        return
    views = library.views(ids)
    common = [t for t in views[0].tags if all(t.casefold() in {x.casefold() for x in v.tags} for v in views[1:])]
    known = library.all_tags()
    suggestions = suggest(ids[0]) if len(ids) == 1 else sorted(known, key=lambda t: -known[t])[:8]
    editor = TagEditor([v.title for v in views], common, known, suggestions)

    def apply(edit) -> None:
        if edit is None:
            return
        try:
            library.retag(ids, add=edit.add, remove=edit.remove)
        except ValueError as error:
            screen.notify(str(error), severity="error", markup=False)

    screen.app.push_screen(editor, apply)


def edit_paper(screen: Any) -> None:
    """`e`: ask for new catalog fields of the paper under the cursor (an edited title is
    searchable at once)."""
    from reader_tui.tui.dialogs.edit_dialog import EditDialog

    library, pid, reindex = screen.library, screen.paper_list.current_id, screen.browser.reindex
    if pid is None:
        return

    def apply(changes: dict | None) -> None:
        if not changes:
            return
        try:
            library.edit(pid, **changes)
        except ValueError as error:
            screen.notify(str(error), severity="error", markup=False)
            return
        if {"title", "authors"} & changes.keys():
            reindex(pid)  # an edited title is searchable at once
            screen.app.indexes_stale = True  # the caches are rebuilt as the app exits

    screen.app.push_screen(EditDialog(library.view(pid), library.citekeys()), apply)


def export(screen: Any) -> None:
    """`x`: ask what to export (the marked papers, those the list shows, or all) and how."""
    from reader_tui.tui.dialogs.export_dialog import ExportDialog

    library, papers, label = screen.library, screen.paper_list, screen.browser.describe()
    marked, shown = [pid for pid in papers.ids if pid in papers.marked], list(papers.ids)

    scopes = {"marked": marked, "filter": shown, "all": list(library.papers)}
    dialog = ExportDialog(
        len(marked), len(shown), len(library.papers), filter_label=label, remembered=library.settings.get(EXPORT_SETTING)
    )

    def apply(request) -> None:
        if request is not None:
            if request.format != "markdown":
                library.keep_citekeys(scopes[request.scope])  # on the UI thread: may be cited now
            if not library.read_only:  # the next export starts from this one's choices
                library.set_setting(EXPORT_SETTING, dialog.remembered())
            # Rendering thousands of entries takes seconds: off the UI thread.
            job = lambda: _export(screen, library, request, scopes[request.scope])  # noqa: E731
            screen.run_worker(job, thread=True, group="export", exit_on_error=False)

    screen.app.push_screen(dialog, apply)


def _export(screen: Screen, library: Library, request: Any, ids: list[str]) -> None:
    # In a worker thread: the result is reported through the app (call_from_thread),
    # never by touching widgets here.
    from reader_tui.core.formats.exporters import export_text
    from reader_tui.core.formats.write import write_export
    from reader_tui.tui.clipboard import copy_text

    views = library.views(ids)
    text = export_text(request.format, views, abstract=request.abstract)
    what = f"{len(views):,} paper{'s' if len(views) != 1 else ''}"
    notify = screen.app.call_from_thread
    if request.to_clipboard or request.path is None:
        how = notify(copy_text, screen.app, text)
        notify(screen.notify, f"Copied {what} to the {how}", markup=False)
        return
    try:
        write_export(text, request.path, force=request.overwrite)
    except OSError as error:
        notify(screen.notify, f"Export failed: {error}", severity="error", markup=False)
        return
    notify(screen.notify, f"Exported {what} to {request.path}", markup=False)


def import_file(screen: Any) -> None:
    """Ask for a file and import it (the dialog runs the import and reports)."""
    from reader_tui.tui.dialogs.import_dialog import ImportDialog

    screen.app.push_screen(ImportDialog(screen.library))


def help_screen(screen: Screen) -> None:
    from reader_tui.tui.screens.help_screen import HelpScreen

    screen.app.push_screen(HelpScreen())


def triage(screen: Any) -> None:
    """`T`: triage the papers the list shows; back on the list, the cursor is on the last one."""
    from reader_tui.tui.listing import search_words
    from reader_tui.tui.screens.triage_screen import TriageScreen

    screen.save_pending()
    library, papers, browser, suggest = screen.library, screen.paper_list, screen.browser, screen.side.related.suggest_tags_for

    def back(pid: str | None) -> None:
        if pid is not None and pid in papers.ids:
            papers.move_to(papers.ids.index(pid))
        papers.focus()

    ids = list(papers.ids)
    triage_screen = TriageScreen(
        library, ids, filter_key=triage_key(library, ids, browser.query_text()), filter_label=browser.describe(),
        suggest=suggest, matched=browser.matched, words=search_words(browser.query_text()),
        for_you=getattr(screen, "for_you", None),
    )
    screen.app.push_screen(triage_screen, back)


def reviews(screen: Any) -> None:
    """`R`: the reviews of the paper under the cursor, the search's words highlighted."""
    from reader_tui.tui.screens.reviews_screen import open_reviews

    pid = screen.paper_list.current_id
    if pid is not None:
        open_reviews(screen.app, screen.library, pid, _reviews_words(screen, pid))


def reviews_ahead(screen: Any, pid: str | None) -> None:
    """The cursor moved to `pid`: its reviews made ready once it rests there, so that
    `R` only shows them (`reviews_ahead.read_ahead`)."""
    from reader_tui.tui.screens.reviews_ahead import read_ahead

    if pid is not None:
        read_ahead(screen.app, pid, lambda: _reviews_words(screen, pid))


def _reviews_words(screen: Any, pid: str) -> tuple[str, ...]:
    """The words the reviews of `pid` highlight: the search's, and what it matched in `pid`."""
    from reader_tui.tui.listing import search_words

    browser = screen.browser
    return (*browser.matched.get(pid, ()), *search_words(browser.query_text()))


def triage_key(library: Library, ids: list[str], query: str) -> str:
    """Under which key triage remembers its place in the list `ids`: "all" for the whole
    library, the filter and search for one, and for a list that no query names ("more
    like this", a list of jumps) a key of its papers: so a 50-paper triage of such a list
    never moves where the triage of the whole library resumes."""
    if query:
        return query
    if len(ids) == len(library.papers):
        return "all"
    import hashlib

    digest = hashlib.sha1("\n".join(sorted(ids)).encode("utf-8")).hexdigest()[:16]
    return f"list:{len(ids)}:{digest}"


def stats(screen: Any) -> None:
    """`S`: statistics of the papers the list shows (of the whole library when it shows all)."""
    from reader_tui.tui.screens.stats_screen import StatsScreen

    library, shown, label = screen.library, list(screen.paper_list.ids), screen.browser.describe()
    screen.app.push_screen(StatsScreen(library, None if len(shown) == len(library.papers) else shown, filter_label=label))
