"""`reader-tui list`, `show`, `mark`, `tag`, `note` and `edit`: reading and annotating papers."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.model import EDITABLE_FIELDS, PaperView
from ..core.text.words import counted
from .options import open_library, select_views
from .output import EXIT_OK, EXIT_USAGE, UserError, print_json


def cmd_list(args: argparse.Namespace) -> int:
    library = open_library(args)
    if args.sort == "for-you":
        return _list_for_you(args, library)
    views = select_views(library, status=args.status, tags=args.tag, search=args.search)
    if args.sort:
        from ..core.search.sorting import SortKey, sort_views

        views = sort_views(views, SortKey(args.sort, args.reverse))
    if args.limit is not None:
        views = views[: max(args.limit, 0)]
    if args.json:
        print_json([v.to_dict() for v in views])
        return EXIT_OK
    _print_lines(views)
    return EXIT_OK


def _summaries(store: Any) -> Any:
    """The reviews store's summaries for "for you"; a store that cannot be read is said
    on stderr, and the model learns without (the rest of) them: the list needs none."""
    import sys

    from ..core.atomic_storage import StoreError

    try:
        yield from store.summaries()
    except StoreError as error:
        print(f"reader-tui list: for you could not read the reviews: {error}", file=sys.stderr)


def _list_for_you(args: argparse.Namespace, library: Any) -> int:
    """`list --sort for-you`: the undecided papers (of --status / --search) ranked by a
    model of the user's decisions, or with --tag T by a model of the papers tagged T;
    each with why (the words that weigh most, the user's papers it is closest to)."""
    import sys

    from ..core.library.indexing import search_index
    from ..core.related import for_you
    from ..core.search.sorting import SortKey, sort_views

    if len(args.tag) > 1:
        raise UserError("list --sort for-you: one --tag at most (the tag whose papers to find more like)", EXIT_USAGE)
    tag = args.tag[0] if args.tag else None
    everything = library.views()
    if tag is None:
        ready, message = for_you.readiness(everything)
        if not ready:
            print(message, file=sys.stderr)
    chosen = select_views(library, status=args.status, tags=(), search=args.search)
    index = search_index(library)[0]
    # the features the TUI trains on: the papers' TL;DRs and keywords, the reviewers' summaries
    features = for_you.Features(index, library.papers.values(), _summaries(library.review_store))
    model = for_you.train(features, everything, tag=tag)
    if model is None:
        what = f"no paper is tagged {tag!r}" if tag else "no paper is to-read, reading, read or tagged yet"
        raise UserError(f"list --sort for-you: {what}, so there is nothing to learn from", EXIT_USAGE)
    scores = model.scores()
    undecided = [v for v in chosen if v.id not in model.decided]
    views = sort_views(undecided, SortKey("for-you", args.reverse), scores)
    if args.limit is not None:
        views = views[: max(args.limit, 0)]
    titles = {v.id: v.title for v in everything}
    reasons = {v.id: model.explain(v.id) for v in views}
    if args.json:
        print_json([
            {**v.to_dict(), "for_you": {
                "score": round(scores[v.id], 4),
                "words": [{"word": w, "weight": c} for w, c in reasons[v.id].words],
                "like": [{"id": pid, "title": titles.get(pid, ""), "similarity": sim} for pid, sim in reasons[v.id].like],
            }}
            for v in views
        ])
        return EXIT_OK
    _print_lines(views, {pid: reason.describe(titles) for pid, reason in reasons.items()})
    return EXIT_OK


def _print_lines(views: list[PaperView], why: dict[str, str] | None = None) -> None:
    from ..core.reviews import compact_scores
    from ..core.text.display import one_line, visible_controls

    scored = any(view.paper.scores is not None and view.paper.scores.ratings for view in views)
    for view in views:
        # tags as typed: they are the user's words, not LaTeX ("a\{b}" stays a\{b})
        tags = f"  [{', '.join(map(visible_controls, view.tags))}]" if view.tags else ""
        # the score column only where some paper has reviews: other lists print as before
        score = f"{compact_scores(view.paper.scores):<8} " if scored else ""
        withdrawn = " (withdrawn)" if view.paper.withdrawn else ""
        print(
            f"{visible_controls(view.id)}  {view.status.mark} {view.status.value:<8} {score}"
            f"{one_line(view.title, 90)}{withdrawn}{tags}"
        )
        if why is not None and view.id in why:
            print(f"    why: {visible_controls(one_line(why[view.id], 200))}")


def cmd_show(args: argparse.Namespace) -> int:
    library = open_library(args)
    view = library.view(library.resolve_id(args.id))
    if args.reviews:
        forum = library.forum(view.id)
        if args.json:
            print_json(None if forum is None else forum_json(forum))
            return EXIT_OK
        if forum is None:
            from ..core.text.display import visible_controls

            print(f"{visible_controls(view.id)}: no reviews imported (import the forum's notes: reader-tui import FILE)")
            return EXIT_OK
        print(format_forum(view, forum))
        return EXIT_OK
    from ..core.library.sync.group import load_group

    group = load_group(library.files.folder).of(view.id)  # a reading group's other members
    if args.json:
        data = view.to_dict()
        if group:
            data["group"] = {name: {"status": a.status.value, "tags": list(a.tags), "notes": a.notes} for name, a in group.items()}
        print_json(data)
        return EXIT_OK
    print(format_paper(view))
    if group:
        print(format_group(group))
    return EXIT_OK


def format_group(group: dict[str, Any]) -> str:
    """The other members' marks of one paper (`GroupMarks.of`), as `show` prints them
    after the paper: one line per member, their notes under it, indented."""
    from ..core.text.display import one_line, sanitize, visible_controls

    lines = ["", "group:"]
    for name, ann in group.items():
        tags = ", ".join(map(visible_controls, ann.tags))
        lines.append(f"  {one_line(name)}: {ann.status.value}{'  tags: ' + tags if tags else ''}")
        if ann.notes:
            lines += [f"    {line}" for line in sanitize(ann.notes).splitlines()]
    return "\n".join(lines)


def cmd_mark(args: argparse.Namespace) -> int:
    library = open_library(args)
    ids = list(dict.fromkeys(library.resolve_id(i) for i in args.ids))  # one paper named twice is one
    already = sum(1 for pid in ids if library.annotation(pid).status is args.status)
    library.set_status(ids, args.status)
    # "set to", not "marked": in the TUI, marking is selecting papers (space). A paper
    # that already had the status was not set: said so, not counted as set.
    status = args.status.value
    if already == len(ids):
        print(f"{counted(already, 'paper')} already {status}: nothing changed")
    elif already:
        print(f"{counted(len(ids) - already, 'paper')} set to {status} ({already} already {status})")
    else:
        print(f"{counted(len(ids), 'paper')} set to {status}")
    return EXIT_OK


def cmd_tag(args: argparse.Namespace) -> int:
    items = list(args.items) + list(args.extra)
    add = [i[1:] for i in items if i.startswith("+")]
    remove = [i[1:] for i in items if i.startswith("-")]
    raw_ids = [i for i in items if not i.startswith(("+", "-"))]
    if not raw_ids:
        raise UserError("name at least one paper id", EXIT_USAGE)
    if not add and not remove:
        raise UserError("name at least one +TAG to add or -TAG to remove", EXIT_USAGE)
    library = open_library(args)
    ids = [library.resolve_id(i) for i in raw_ids]
    try:
        library.retag(ids, add=add, remove=remove)
    except ValueError as error:
        raise UserError(str(error), EXIT_USAGE) from None
    from ..core.text.display import visible_controls

    for pid in ids:
        tags = ", ".join(map(visible_controls, library.annotation(pid).tags))
        print(f"{visible_controls(pid)}: {tags or '(no tags)'}")
    return EXIT_OK


def cmd_note(args: argparse.Namespace) -> int:
    library = open_library(args)
    pid = library.resolve_id(args.id)
    if args.set_text is not None:
        library.set_notes(pid, _stdin_if_dash(args.set_text))
    else:
        old = library.annotation(pid).notes
        addition = _stdin_if_dash(args.append_text)
        library.set_notes(pid, f"{old.rstrip()}\n{addition}" if old.strip() else addition)
    from ..core.text.display import visible_controls

    print(f"{visible_controls(pid)}: notes saved ({counted(len(library.annotation(pid).notes), 'character')})")
    return EXIT_OK


def cmd_edit(args: argparse.Namespace) -> int:
    values = {k: getattr(args, k) for k in EDITABLE_FIELDS if getattr(args, k) is not None}
    if not values:
        raise UserError("say what to change: --title, --authors, --url or --citekey", EXIT_USAGE)
    if "authors" in values:
        from ..core.text.names import split_authors

        values["authors"] = list(split_authors(values["authors"]))
    library = open_library(args)
    pid = library.resolve_id(args.id)
    before = library.view(pid)
    shown = {field: getattr(before, field) for field in values}
    overridden = set(library.annotation(pid).overrides)
    try:
        library.edit(pid, **values)
    except ValueError as error:
        raise UserError(str(error), EXIT_USAGE) from None
    from ..core.text.display import visible_controls

    # What happened to each field, truly: an empty value puts back the imported one
    # (when there was an edit to drop), and a value the paper already shows changes nothing.
    after = library.view(pid)
    said = []
    for field, value in values.items():
        if not value and field in overridden:
            said.append(f"{field} back to the imported one")
        elif getattr(after, field) != shown[field]:
            said.append(f"{field} changed")
        else:
            said.append(f"{field} unchanged")
    print(f"{visible_controls(pid)}: {', '.join(said)}")
    if {"title", "authors"} & values.keys():
        from ..core.library.indexing import start_background_prepare

        start_background_prepare(library.files.folder)  # the index caches hold the old text
    return EXIT_OK


def format_paper(view: PaperView) -> str:
    """A paper as plain text for the terminal: title, venue, authors, keywords and
    abstract rendered from their LaTeX/markdown as on screen; ids, url, tags and notes as
    typed. Control characters are shown visibly in all of them, never sent raw."""
    from ..core.reviews import scores_line
    from ..core.text.display import derived_title_note, names_line, one_line, sanitize, to_display, visible_controls
    from ..core.text.venues import venue_line

    lines = [one_line(view.title), ""]
    if view.title_derived and view.title == view.paper.title:
        lines = [one_line(view.title), derived_title_note(view.paper.entry_type), ""]
    rows = [
        ("id", visible_controls(view.id)),
        ("other id", ", ".join(map(visible_controls, view.aliases))),
        ("citekey", visible_controls(view.citekey)),
        ("status", view.status.value),
        ("tags", ", ".join(map(visible_controls, view.tags))),
        ("venue", venue_line(one_line(view.venue), view.year)),
        ("authors", names_line(view.authors)),
        ("url", visible_controls(view.url)),
        ("pdf", visible_controls(view.paper.pdf_url)),
        ("keywords", names_line(view.keywords)),
        ("area", one_line(view.paper.area)),
        ("scores", scores_line(view.paper.scores)),
        ("state", "withdrawn" if view.paper.withdrawn else ""),
        ("tldr", one_line(to_display(view.paper.tldr)) if view.paper.tldr else ""),
    ]
    lines += [f"{name:<9}{value}" for name, value in rows if value]
    if view.abstract:
        lines += ["", to_display(view.abstract)]
    if view.notes:
        # the user's own words: not LaTeX, not markdown; lines and tabs kept
        lines += ["", "notes:", sanitize(view.notes)]
    return "\n".join(lines)


def format_forum(view: PaperView, forum: Any) -> str:
    """A paper's forum as plain text: the title and scores, then every note in reading
    order (`Forum.thread`), replies indented under what they answer. The notes' text is
    data: shown as written (markdown and LaTeX as typed), control characters made
    visible, never interpreted by the terminal."""
    from ..core.reviews import scores_line
    from ..core.text.display import one_line, sanitize

    lines = [one_line(view.title)]
    summary = scores_line(view.paper.scores)
    if summary:
        lines.append(summary)
    if forum.captured:
        lines.append(f"captured {forum.captured}")
    if not forum.notes:
        lines += ["", "no reviews, comments or decision yet"]
    for note, depth in forum.thread():
        pad = "    " * depth
        when = f" · {note.date[:10]}" if note.date else ""
        lines += ["", f"{pad}── {sanitize(note.label)}{when}"]
        line = note.scores_line()
        if line:
            lines.append(f"{pad}{line}")
        for name, text in note.sections:
            lines.append(f"{pad}{name}:")
            lines += [f"{pad}  {row}".rstrip() for row in sanitize(text.replace("\r\n", "\n")).split("\n")]
    return "\n".join(lines)


def forum_json(forum: Any) -> dict[str, Any]:
    """`show --reviews --json`: the forum's notes in reading order, with their depth."""
    return {
        "paper_id": forum.paper_id,
        "captured": forum.captured or None,
        "notes": [
            {
                "id": note.id,
                "kind": note.kind,
                "replyto": note.replyto,
                "author": note.author,
                "depth": depth,
                "date": note.date or None,
                "scores": dict(note.scores),
                "history": [{"captured": when, "scores": dict(scores)} for when, scores in note.history],
                "text": {name: text for name, text in note.sections},
            }
            for note, depth in forum.thread()
        ],
    }


def _stdin_if_dash(text: str) -> str:
    from .output import read_stdin_text

    return read_stdin_text() if text == "-" else text
