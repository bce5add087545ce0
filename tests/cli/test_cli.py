"""Every CLI command end to end against a temporary store: in-process through
`reader_tui.cli.main` (what a subprocess would add is proved once, by the tests marked
"in a real subprocess": the module entry point, exit codes and the import of Textual)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cli_support import Run

REPO = Path(__file__).resolve().parents[2]


def run_process(db: Path | None, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m reader_tui ARGS [--db DB]` in a real subprocess."""
    env = {k: v for k, v in os.environ.items() if k != "READER_TUI_DB"}
    env.update(PYTHONPATH=str(REPO), HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "home" / "data"))
    command = [sys.executable, "-m", "reader_tui", *args, *(["--db", str(db)] if db else [])]
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)


def ids(run: Run) -> list[str]:
    result = run("list", "--json")
    assert result.returncode == 0, result.stderr
    return [paper["id"] for paper in json.loads(result.stdout)]


def test_version(run: Run, tmp_path: Path) -> None:
    result = run("--version", use_db=False)
    assert result.returncode == 0
    assert result.stdout.startswith("reader-tui ")
    # in a real subprocess: the module runs the command and exits with its code
    result = run_process(None, tmp_path, "--version")
    assert result.returncode == 0 and result.stdout == run("--version", use_db=False).stdout


def test_help_of_every_command(run: Run) -> None:
    for command in ("import", "index", "list", "show", "mark", "tag", "note", "edit", "stats"):
        result = run(command, "--help", use_db=False)
        assert result.returncode == 0, command
        assert "usage: reader-tui" in result.stdout


def test_first_run_lists_the_seed(run: Run) -> None:
    result = run("list", "--json")
    assert result.returncode == 0, result.stderr
    papers = json.loads(result.stdout)
    assert len(papers) == 19
    required = {"id", "title", "abstract", "authors", "venue", "year", "url", "keywords", "citekey", "status", "tags", "notes"}
    assert all(required <= paper.keys() for paper in papers)
    assert {p["venue"] for p in papers} == {"ICLR"}
    assert any(p["title"].startswith("Active Reading") for p in papers)


def test_env_variable_chooses_the_store(run: Run, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    result = run("mark", "read", ids(run)[0], use_db=False, extra_env={"READER_TUI_DB": str(other)})
    # The id came from --db's store; the same seed gives the same ids in the env's store.
    assert result.returncode == 0, result.stderr
    assert (other / "annotations.json").exists()


def test_plain_list_output(run: Run) -> None:
    result = run("list")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 19
    assert "unread" in lines[0]


def test_mark_and_filter_by_status(run: Run) -> None:
    first, second, *_ = ids(run)
    assert run("mark", "read", first, second).returncode == 0
    assert run("mark", "to-read", second[:6]).returncode == 0
    read = json.loads(run("list", "--status", "read", "--json").stdout)
    assert [p["id"] for p in read] == [first]
    result = run("mark", "finished", first)
    assert result.returncode == 2
    assert "unknown status" in result.stderr


def test_tag_add_remove_and_filter(run: Run) -> None:
    first, second, *_ = ids(run)
    result = run("tag", first, second, "+LLM", "+memory")
    assert result.returncode == 0, result.stderr
    assert run("tag", second, "-llm").returncode == 0
    tagged = json.loads(run("list", "--tag", "llm", "--json").stdout)
    assert [p["id"] for p in tagged] == [first]
    assert tagged[0]["tags"] == ["LLM", "memory"]
    empty = run("tag", first, "+   ")
    assert empty.returncode == 0  # whitespace-only tags are dropped, not stored
    assert json.loads(run("show", first, "--json").stdout)["tags"] == ["LLM", "memory"]


def test_note_set_append_and_stdin(run: Run) -> None:
    first = ids(run)[0]
    assert run("note", first, "--set", "First thought.").returncode == 0
    assert run("note", first, "--append", "Second thought.").returncode == 0
    assert run("note", first, "--append", "-", stdin="From a pipe.\n").returncode == 0
    notes = json.loads(run("show", first, "--json").stdout)["notes"]
    assert notes.splitlines() == ["First thought.", "Second thought.", "From a pipe."]


def test_edit_fields_and_refuse_duplicate_citekey(run: Run) -> None:
    first, second, *_ = ids(run)
    result = run("edit", first, "--title", "My title", "--authors", "Ada Lovelace and Alan Turing",
                 "--url", "https://example.org/p", "--citekey", "lovelace2026")
    assert result.returncode == 0, result.stderr
    paper = json.loads(run("show", first, "--json").stdout)
    assert paper["title"] == "My title"
    assert paper["authors"] == ["Ada Lovelace", "Alan Turing"]
    assert paper["url"] == "https://example.org/p"
    assert paper["citekey"] == "lovelace2026"
    clash = run("edit", second, "--citekey", "LOVELACE2026")
    assert clash.returncode == 2
    assert "already used" in clash.stderr
    assert run("edit", first).returncode == 2


def test_edit_says_what_happened_to_each_field(run: Run) -> None:
    """`edit` said "title changed" of an edit that changed nothing (the same title, or ''
    on a paper with no edit to drop) and of '' that put the imported title back (found by hand)."""
    first = ids(run)[0]
    imported = json.loads(run("show", first, "--json").stdout)["title"]
    assert run("edit", first, "--title", "").stdout == f"{first}: title unchanged\n"
    assert run("edit", first, "--title", "Mine", "--url", "https://x.org/p").stdout == (
        f"{first}: title changed, url changed\n"
    )
    assert run("edit", first, "--title", "Mine").stdout == f"{first}: title unchanged\n"
    assert run("edit", first, "--title", "").stdout == f"{first}: title back to the imported one\n"
    assert json.loads(run("show", first, "--json").stdout)["title"] == imported


def test_show_plain_and_prefix_errors(run: Run) -> None:
    first = ids(run)[0]
    shown = run("show", first[:7])
    assert shown.returncode == 0
    assert first in shown.stdout and "ICLR 2026" in shown.stdout
    unknown = run("show", "zzzzzz")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("reader-tui: no paper")
    assert "Traceback" not in unknown.stderr
    ambiguous = run("show", "")
    assert ambiguous.returncode == 2


def test_stats(run: Run) -> None:
    first, second, *_ = ids(run)
    run("mark", "read", first)
    run("tag", first, second, "+x")
    stats = json.loads(run("stats", "--json").stdout)
    assert stats["papers"] == 19
    assert stats["status"]["read"] == 1 and stats["status"]["unread"] == 18
    assert stats["tags"] == {"x": 2}
    assert "19 papers" in run("stats").stdout


def test_import_seed_twice_adds_nothing_and_keeps_annotations(run: Run, tmp_path: Path) -> None:
    first = ids(run)[0]
    run("mark", "reading", first)
    result = run("import", str(REPO / "seeds" / "iclr2026.txt"))
    assert result.returncode == 0, result.stderr
    assert "0 new" in result.stdout
    assert len(ids(run)) == 19
    assert json.loads(run("show", first, "--json").stdout)["status"] == "reading"


def test_import_a_headerless_seed_with_venue_and_year(run: Run, tmp_path: Path) -> None:
    seed = tmp_path / "mine.txt"
    seed.write_text("We propose Zebra, a striped method for testing.\n\n\nA second abstract about things.\n",
                    encoding="utf-8")
    result = run("import", str(seed), "--format", "seed", "--venue", "NeurIPS", "--year", "2025", "--no-seed")
    assert result.returncode == 0, result.stderr
    papers = json.loads(run("list", "--json").stdout)
    assert len(papers) == 2
    assert {(p["venue"], p["year"]) for p in papers} == {("NeurIPS", 2025)}


def test_import_of_a_missing_file_is_a_clear_error(run: Run, tmp_path: Path) -> None:
    result = run("import", str(tmp_path / "nope.txt"))
    assert result.returncode == 1
    assert "nope.txt" in result.stderr and "Traceback" not in result.stderr


def test_a_corrupt_store_stops_with_the_file_named(run: Run, db: Path, tmp_path: Path) -> None:
    run("mark", "read", ids(run)[0])
    (db / "annotations.json").write_text("{broken", encoding="utf-8")
    result = run("list")
    assert result.returncode == 1
    assert str(db / "annotations.json") in result.stderr
    assert "Traceback" not in result.stderr
    # in a real subprocess: the exit code and the one line reach the shell, no traceback
    done = run_process(db, tmp_path, "list")
    assert (done.returncode, done.stderr) == (1, result.stderr)
    assert (db / "annotations.json").read_text(encoding="utf-8") == "{broken"


def test_cli_does_not_import_textual(db: Path) -> None:
    code = (
        "import sys; from reader_tui.cli import main; "
        "main(['--db', sys.argv[1], 'list']); print('textual' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(db)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "False"


def test_export_bibtex_to_stdout_file_and_refuses_overwrite(run: Run, tmp_path: Path) -> None:
    import bibtexparser

    first, second, *_ = ids(run)
    run("mark", "read", first, second)
    run("note", first, "--set", "Unbalanced } brace & 100% sure")
    shown = run("export", "--status", "read")
    assert shown.returncode == 0, shown.stderr
    library = bibtexparser.parse_string(shown.stdout)
    assert len(library.entries) == 2 and not library.failed_blocks
    # Anonymous submissions keep their @inproceedings form, with OpenReview's "Anonymous"
    # as the author, so that plain.bst neither warns of an empty author nor needs a key.
    assert {e.entry_type for e in library.entries} == {"inproceedings"}
    assert all(e.fields_dict["author"].value == "Anonymous" and "key" not in e.fields_dict for e in library.entries)

    target = tmp_path / "read.bib"
    assert run("export", "--status", "read", "--no-abstract", "-o", str(target)).returncode == 0
    written = bibtexparser.parse_string(target.read_text(encoding="utf-8"))
    assert all("abstract" not in e.fields_dict for e in written.entries)
    again = run("export", "-o", str(target))
    assert again.returncode == 1 and "--force" in again.stderr
    assert len(bibtexparser.parse_string(target.read_text(encoding="utf-8")).entries) == 2
    assert run("export", "-o", str(target), "--force").returncode == 0
    assert len(bibtexparser.parse_string(target.read_text(encoding="utf-8")).entries) == 19


def test_export_markdown_by_id(run: Run) -> None:
    first = ids(run)[0]
    result = run("export", "--format", "markdown", "--id", first[:8])
    assert result.returncode == 0
    assert result.stdout.count("\n- ") + result.stdout.startswith("- ") >= 1 or "##" in result.stdout
    assert "Active Reading" in result.stdout


def test_export_to_a_folder_is_a_clear_error(run: Run, tmp_path: Path) -> None:
    result = run("export", "-o", str(tmp_path))
    assert result.returncode == 1
    assert str(tmp_path) in result.stderr and "Traceback" not in result.stderr


def test_doctor_and_restore(run: Run, db: Path) -> None:
    first = ids(run)[0]
    run("note", first, "--set", "precious")
    run("tui", "--help")  # any command
    assert run("doctor").returncode == 0
    # A backup exists once a session has started after the note was written.
    from reader_tui.core.library.library import Library

    Library.open(db, background_writes=True).close()
    (db / "annotations.json").write_text("{damaged", encoding="utf-8")
    checked = run("doctor")
    assert checked.returncode == 1 and "--restore" in checked.stdout
    refused = run("doctor", "--restore")  # no terminal to ask on: it changes nothing
    assert refused.returncode == 1 and "--yes" in refused.stdout
    assert (db / "annotations.json").read_text(encoding="utf-8") == "{damaged"
    restored = run("doctor", "--restore", "--yes")
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert json.loads(run("show", first, "--json").stdout)["notes"] == "precious"
    assert list(db.glob("annotations.damaged-*.json"))


def test_annotations_move_between_machines(run: Run, tmp_path: Path) -> None:
    first = ids(run)[0]
    run("mark", "reading", first)
    run("tag", first, "+moved")
    exported = tmp_path / "mine.json"
    assert run("annotations", "export", "-o", str(exported)).returncode == 0
    other_db = tmp_path / "other"
    result = run("--db", str(other_db), "annotations", "import", str(exported), use_db=False)
    assert result.returncode == 0, result.stderr
    paper = json.loads(run("--db", str(other_db), "show", first, "--json", use_db=False).stdout)
    assert paper["status"] == "reading" and paper["tags"] == ["moved"]


def test_annotations_import_names_the_file_of_each_bad_entry(run: Run, tmp_path: Path) -> None:
    """A bad entry of an annotations file is one line naming the file and the entry; it
    named only the entry ("paper 'x': unknown status 'bogus'...; skipped": found by hand)."""
    first = ids(run)[0]
    document = {"reader_tui_annotations": 1, "papers": [{"id": first, "status": "bogus"}, "not an object"]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(document), encoding="utf-8")
    result = run("annotations", "import", str(bad))
    assert result.returncode == 0, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"reader-tui: {bad}: paper '{first}': unknown status 'bogus'")
    assert lines[1] == f"reader-tui: {bad}: paper #2: not an object; skipped"
