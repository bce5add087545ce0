"""The search index's disk cache: a warm load searches exactly like a fresh build; any
change to the papers, and any stale, foreign or damaged file, means a rebuild (and a
rewrite), never a crash and never a trusted bad file; annotations come from the records."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from benchmarks.synthetic import load_views
from reader_tui.core.cache_file import write_cache
from reader_tui.core.model import Annotation, Paper, PaperView, Status
from reader_tui.core.search import cache as search_cache
from reader_tui.core.search.index import SearchIndex
from reader_tui.core.search.postings import FlatPostings

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "papers_sample.jsonl"

QUERIES = [
    "conformal singleton", "geopurfy", "log-lin atten", "NorMuon", "muon gluon", "attenton sparse",
    "strand gausians", "monocular 3d occupancy", "diffusion language model inference", "llm",
    '"linear attention" -softmax', "year:2026 reasoning", "venue:iclr graph", "rl", "the",
    "status:unread", "-diffusion", "zzzzqqq", "hair reconstruction", "sequential recomendation kv",
]


def _load() -> list[PaperView]:
    return load_views(FIXTURE)  # through the real OpenReview importer


@pytest.fixture(scope="module")
def papers() -> list[PaperView]:
    return _load()


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "store-hash" / "search.idx"


def _warm(papers, cache, monkeypatch) -> SearchIndex:
    with monkeypatch.context() as m:
        m.setattr(SearchIndex, "build", classmethod(lambda *a, **k: pytest.fail("built, not loaded")))
        return search_cache.load_or_build(papers, cache)


def _rebuilt(papers, cache, monkeypatch) -> bool:
    """Run load_or_build and say whether it had to build."""
    built = []
    real = SearchIndex.build.__func__

    def spy(cls, *args, **kwargs):
        built.append(True)
        return real(cls, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(SearchIndex, "build", classmethod(spy))
        search_cache.load_or_build(papers, cache)
    return bool(built)


def _retitled(view: PaperView, title: str) -> PaperView:
    return PaperView(dataclasses.replace(view.paper, title=title), view.annotation)


# -- a warm load is the same index --------------------------------------------------------


def test_cold_call_builds_and_writes_the_cache(papers, cache):
    index = search_cache.load_or_build(papers, cache)
    assert cache.is_file()
    assert cache.read_bytes().startswith(b"reader-tui search index ")
    assert len(index) == len(papers) and index.abstracts_indexed


def test_warm_load_searches_exactly_like_a_fresh_build(papers, cache, monkeypatch):
    search_cache.load_or_build(papers, cache)
    warm = _warm(papers, cache, monkeypatch)
    fresh = SearchIndex.build(papers)
    for query in QUERIES:
        # same ids, same order, same scores (to the bit), same matched words
        assert warm.search(query) == fresh.search(query), query
        assert warm.search(query).partial == fresh.search(query).partial, query


def test_a_warm_load_keeps_the_term_frequencies_packed_until_a_search_reads_them(papers, cache, monkeypatch):
    search_cache.load_or_build(papers, cache)
    warm = _warm(papers, cache, monkeypatch)
    assert all(post._held_counts is None for post in warm._post)  # packed: a list opened, not searched
    fresh = SearchIndex.build(papers)
    assert warm.search(QUERIES[0]) == fresh.search(QUERIES[0])
    assert any(post._held_counts is not None for post in warm._post)  # unpacked by the search
    for mine, counted in zip(warm._post, fresh._tf):  # (a small build counts in dicts)
        assert counted and all(list(mine.frequencies(word) or [1] * len(mine[word])) == list(counts)
                               for word, counts in counted.items())


def test_warm_load_has_the_same_derived_state(papers, cache, monkeypatch):
    search_cache.load_or_build(papers, cache)
    warm, fresh = _warm(papers, cache, monkeypatch), SearchIndex.build(papers)
    for mine, theirs in zip(warm._post, fresh._post):
        # the same words with the same papers (a loaded field lists its words sorted: the
        # title words' first-seen order, which the infix search follows, is _title_vocab)
        assert isinstance(mine, FlatPostings)
        assert dict(mine.items()) == dict(theirs.items()) and sorted(mine) == sorted(theirs)
    assert warm._vocab == fresh._vocab and warm._length_buckets() == fresh._length_buckets()
    assert warm._title_vocab == fresh._title_vocab and warm._titles == fresh._titles
    assert {k: list(v) for k, v in warm._years.items()} == dict(fresh._years)
    assert {k: list(v) for k, v in warm._venues.items()} == dict(fresh._venues)
    assert warm._ids == fresh._ids and warm._ordinal == fresh._ordinal and warm._abstracts_done == len(papers)
    assert all(a is b for a, b in zip(warm._records, papers))  # bound to the live records


def test_a_loaded_index_that_takes_more_papers_searches_like_a_fresh_build(papers, cache, monkeypatch):
    # An import into the running app adds papers to an index loaded flat from the cache.
    first, more = papers[:-6], papers[-6:]
    search_cache.load_or_build(first, cache)
    warm = _warm(first, cache, monkeypatch)
    assert all(isinstance(post, FlatPostings) for post in warm._post)
    warm.add(more)
    fresh = SearchIndex.build(papers)
    assert warm._title_vocab == fresh._title_vocab
    for query in QUERIES:
        assert warm.search(query) == fresh.search(query), query


def test_every_index_attribute_is_known_to_the_cache():
    # a new SearchIndex field must be stored or rebuilt by search_cache (and FORMAT bumped)
    assert set(vars(SearchIndex())) == search_cache.KNOWN_ATTRIBUTES


def test_a_loaded_index_still_takes_updates_additions_and_removals(papers, cache, monkeypatch):
    search_cache.load_or_build(papers, cache)
    index = _warm(papers, cache, monkeypatch)
    new = PaperView(Paper(id="new1", title="Quasicrystal Tokenizers", abstract="Aperiodic tilings of text."),
                    Annotation())
    index.add([new])
    assert index.search("quasicrystal")[0].id == "new1"
    assert index.search("aperiodic")[0].id == "new1"
    first = papers[0]
    index.update(PaperView(first.paper, Annotation(tags=("zebra-tag",))))
    assert [h.id for h in index.search("tag:zebra-tag")] == [first.id]
    index.remove([first.id])
    assert first.id not in [h.id for h in index.search(first.title)]


# -- the papers changed: rebuild ----------------------------------------------------------


def test_unchanged_papers_are_served_from_the_cache(papers, cache, monkeypatch):
    assert _rebuilt(papers, cache, monkeypatch)
    assert not _rebuilt(papers, cache, monkeypatch)
    assert not _rebuilt(list(papers), cache, monkeypatch)  # equal records, other objects


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda ps: [_retitled(ps[0], "Totally New Title About Zymurgy"), *ps[1:]], id="catalog title"),
        pytest.param(lambda ps: [PaperView(ps[0].paper, Annotation(overrides={"title": "Zymurgy Override"})),
                                 *ps[1:]], id="user's title override"),
        pytest.param(lambda ps: [PaperView(dataclasses.replace(ps[3].paper, abstract="Zymurgy."), ps[3].annotation)
                                 if i == 3 else p for i, p in enumerate(ps)], id="abstract"),
        pytest.param(lambda ps: [PaperView(dataclasses.replace(ps[5].paper, keywords=("zymurgy",)), ps[5].annotation)
                                 if i == 5 else p for i, p in enumerate(ps)], id="keywords"),
        pytest.param(lambda ps: [PaperView(dataclasses.replace(ps[7].paper, authors=("Ada Zymurgy",)),
                                           ps[7].annotation) if i == 7 else p for i, p in enumerate(ps)], id="authors"),
        pytest.param(lambda ps: [PaperView(dataclasses.replace(ps[9].paper, year=1999), ps[9].annotation)
                                 if i == 9 else p for i, p in enumerate(ps)], id="year"),
        pytest.param(lambda ps: [PaperView(dataclasses.replace(ps[9].paper, venue="Zymurgy 2026"), ps[9].annotation)
                                 if i == 9 else p for i, p in enumerate(ps)], id="venue"),
        pytest.param(lambda ps: [PaperView(dataclasses.replace(ps[9].paper, short_name="ZYM"), ps[9].annotation)
                                 if i == 9 else p for i, p in enumerate(ps)], id="short name"),
        pytest.param(lambda ps: [*ps, PaperView(Paper(id="zz-new", title="Zymurgy at Scale"), Annotation())],
                     id="new paper"),
        pytest.param(lambda ps: ps[1:], id="removed paper"),
        pytest.param(lambda ps: [ps[1], ps[0], *ps[2:]], id="reordered"),
    ],
)
def test_a_changed_paper_list_is_rebuilt_and_rewritten(papers, cache, monkeypatch, change):
    search_cache.load_or_build(papers, cache)
    changed = change(papers)
    assert _rebuilt(changed, cache, monkeypatch)
    fresh = SearchIndex.build(changed)
    index = _warm(changed, cache, monkeypatch)  # the rewrite now serves the changed list
    for query in ("zymurgy", "conformal singleton", "year:1999", "venue:zymurgy", "ZYM"):
        assert index.search(query) == fresh.search(query), query


def test_annotation_changes_do_not_invalidate(papers, cache, monkeypatch):
    search_cache.load_or_build(papers, cache)
    annotated = [PaperView(p.paper, Annotation(status=Status.READ, tags=("x",), notes="n")) for p in papers]
    assert not _rebuilt(annotated, cache, monkeypatch)


# -- a bad file: rebuild, never trust it ---------------------------------------------------


def _damage(cache: Path, how: str) -> None:
    data = cache.read_bytes()
    header_end = data.index(b"\n") + 1
    if how == "truncated body":
        cache.write_bytes(data[: header_end + (len(data) - header_end) // 2])
    elif how == "truncated header":
        cache.write_bytes(data[: header_end // 2])
    elif how == "empty":
        cache.write_bytes(b"")
    elif how == "garbage":
        cache.write_bytes(b"\x00\xffnot a cache at all\n" * 100)
    elif how == "flipped byte":
        at = header_end + (len(data) - header_end) // 3
        cache.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:])
    elif how == "extra bytes":
        cache.write_bytes(data + b"tail")
    elif how == "other format":
        cache.write_bytes(data.replace(f" {search_cache.FORMAT} ".encode(), b" 999 ", 1))
    elif how == "other python":
        cache.write_bytes(data.replace(b" cpython-", b" cpython-2", 1))
    elif how == "other fingerprint":
        fp = data.split(b" ")[6]
        cache.write_bytes(data.replace(fp, b"0" * len(fp), 1))
    else:
        raise AssertionError(how)


BAD = ["truncated body", "truncated header", "empty", "garbage", "flipped byte", "extra bytes", "other format",
       "other python", "other fingerprint"]


@pytest.mark.parametrize("how", BAD)
def test_a_bad_cache_is_never_unpickled_but_rebuilt_and_rewritten(papers, cache, monkeypatch, how):
    search_cache.load_or_build(papers, cache)
    good = cache.read_bytes()
    _damage(cache, how)
    with monkeypatch.context() as m:
        m.setattr(search_cache.pickle, "loads", lambda *a, **k: pytest.fail("a bad file was unpickled"))
        assert search_cache.load(papers, cache) is None
    assert _rebuilt(papers, cache, monkeypatch)
    assert cache.read_bytes() == good  # rewritten: the next start is warm again
    fresh = SearchIndex.build(papers)
    index = _warm(papers, cache, monkeypatch)
    assert index.search("conformal singleton") == fresh.search("conformal singleton")


def test_a_well_signed_body_of_the_wrong_shape_is_rebuilt(papers, cache, monkeypatch):
    # the header and digest match (as if written by a buggy version), the content does not
    search_cache.load_or_build(papers, cache)
    for body in (pickle.dumps({"n": len(papers)}), pickle.dumps([1, 2, 3]), pickle.dumps({"n": 3, "titles": []})):
        fp = search_cache.fingerprint(papers)
        assert write_cache(cache, search_cache.KIND, search_cache.FORMAT, search_cache.cache_key(fp), body)
        assert search_cache.load(papers, cache) is None
        assert _rebuilt(papers, cache, monkeypatch)


def test_an_unreadable_or_unwritable_cache_path_still_gives_an_index(papers, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    index = search_cache.load_or_build(papers, blocker / "search.idx")  # parent is a file
    assert index.search("conformal singleton")[0].id == "mO3nEGibLA"
    folder = tmp_path / "search.idx"
    folder.mkdir()  # the cache path is a folder
    assert search_cache.load_or_build(papers, folder).search("NorMuon")[0].id == "7TeJXgr7L6"


def test_save_refuses_an_index_that_no_longer_matches_a_record_list(papers, cache):
    index = SearchIndex.build(papers)
    index.remove([papers[0].id])
    assert not search_cache.save(index, cache) and not cache.exists()
    partial = SearchIndex.build(papers, abstracts=False)
    assert not search_cache.save(partial, cache) and not cache.exists()
    partial.index_abstracts()
    assert search_cache.save(partial, cache)
    assert search_cache.load(papers, cache) is not None


# -- annotations come from the records -----------------------------------------------------


def test_status_tags_and_notes_come_from_the_records_not_the_cache(papers, cache, monkeypatch):
    first, second = papers[0].paper, papers[1].paper
    annotated = [PaperView(first, Annotation(status=Status.READ, tags=("Old-Tag",), notes="old note quokka")),
                 *papers[1:]]
    search_cache.load_or_build(annotated, cache)  # the cache was written with these annotations
    now = [PaperView(first, Annotation()),
           PaperView(second, Annotation(status=Status.TO_READ, tags=("New-Tag",), notes="new note wombat")),
           *papers[2:]]
    index = _warm(now, cache, monkeypatch)
    assert index.search("tag:old-tag") == [] and index.search("quokka") == []
    assert [h.id for h in index.search("status:read")] == []
    assert [h.id for h in index.search("tag:new-tag")] == [second.id]
    assert [h.id for h in index.search("status:to-read")] == [second.id]
    assert index.search("wombat")[0].id == second.id
    assert [h.id for h in index.search("is:tagged")] == [second.id]
    fresh = SearchIndex.build(now)
    for query in ("wombat", "tag:new-tag conformal", "status:unread", "is:tagged", "new-tag"):
        assert index.search(query) == fresh.search(query), query


def test_the_cache_file_holds_no_annotations(papers, cache):
    annotated = [PaperView(p.paper, Annotation(tags=("secret-tag",), notes="secret note")) for p in papers[:20]]
    search_cache.load_or_build(annotated, cache)
    data = cache.read_bytes()
    assert b"secret" not in data
