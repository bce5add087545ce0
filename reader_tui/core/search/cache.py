"""A disk cache of `index.SearchIndex` for warm starts: `load_or_build(records, cache_path)`.

Building the index tokenises every abstract (2-3 s of CPU at 20,000 papers on a slow
2-core machine); loading it from this cache takes a small fraction of that. The file
holds only what the build derives from the catalog: the postings of each field, the
vocabulary, the lower-cased titles, years and venues. The records themselves (live
`PaperView`s) are not stored: a load binds the index to the records passed in, ordinal
for ordinal, and takes their status, tags and notes from them, since those change all
the time and are cheap to gather.

The file is a `core.cache_file` (one header line, then a pickle and the postings' raw
arrays; written atomically with fsync), of kind "search index", version FORMAT, keyed by rapidfuzz's version and the
fingerprint: a hash of everything the build reads from the records (ids in order, title,
short name, abstract, authors, keywords, venue, year). Anything but an exact match of the
header, or a body of another size or digest, means rebuild and rewrite: a stale, foreign,
truncated or damaged file is never unpickled.

Why pickle is acceptable here: the file is written by this program into the user's own
cache folder, and its body is only unpickled after its header (format, Python, fingerprint)
and the digest of the body match what this program would have written. Someone who can
write that folder can already change the user's code and data; the checks are there for
stale and damaged files, which is what a cache actually meets.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
from array import array
from collections.abc import Iterable
from operator import attrgetter
from pathlib import Path

import rapidfuzz

from ..cache_file import head_piece, read_array, read_head_piece, reading_cache, write_cache
from ..model import PaperView
from ..process_tuning import gc_paused
from .index import SearchIndex, notes_key, tag_keys
from .postings import FlatPostings

#: Bump when the tokeniser, the index's fields or this file's layout change, so that old
#: caches are rebuilt, not trusted.
#: 2: titles, names and venues indexed as displayed, accents folded;
#: 3: nested-brace accents ({\c{c}}), letter commands (\ss, \"\i) and ø ł ß æ folded;
#: 4: each field's postings flat over the vocabulary (`FlatPostings`), title words' order kept,
#: their arrays raw after the pickle; 5: the acronyms the abstracts define; 6: ordinals in
#: 16 bits, in segments of 65,536 papers (`postings.FlatPostings`); 7: each pair's term frequency;
#: 8: the term frequencies packed (zlib)
FORMAT = 8
KIND = "search index"
#: The attributes of a SearchIndex this module knows how to store or rebuild (a test checks
#: that the index has no others, so a new field cannot be silently left out of the cache).
KNOWN_ATTRIBUTES = frozenset({
    "_ids", "_ordinal", "_records", "_removed", "_post", "_titles", "_years", "_venues", "_status",
    "_tags", "_notes", "_vocab", "_by_length", "_title_vocab", "_abstracts_done", "_cache", "_lock",
    "index_abstracts_on_search", "_rating", "_spread", "_nreviews", "_moved", "_areas", "_decisions", "_withdrawn",
    "_acronyms", "_keys", "_prior", "_weights", "_keywords", "_tf",
})
_CATALOG_FIELDS = attrgetter("short_name", "abstract", "keywords", "venue", "year")


def fingerprint(records: Iterable) -> str:
    """A digest of exactly what the index is built from, in order: a cache made from other
    papers, another order or an edited title is stale.

    About 0.1 s at 20,000 papers (most of it reading the attributes and encoding the
    abstracts), against 2-3 s of CPU for a build. Fields are joined with control characters;
    text that contains them could in principle collide with other text, which would at
    worst serve a stale index, never crash.
    """
    # sha1 as a checksum, not for security: it is the fastest hashlib digest here
    digest = hashlib.sha1(usedforsecurity=False)
    update = digest.update
    for r in records:
        # a PaperView passes catalog fields on through __getattr__, which Python only calls
        # after a failed lookup: reading them off its Paper halves the fingerprint's cost
        source = r.paper if type(r) is PaperView else r
        pid, title, authors = r.id, r.title, r.authors  # the view's: with the user's overrides
        short_name, abstract, keywords, venue, year = _CATALOG_FIELDS(source)
        update("\x1f".join((
            pid, title, short_name or "", abstract or "", "\x1e".join(authors), "\x1e".join(keywords),
            venue or "", str(year), "\x1d",
        )).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def cache_key(fp: str) -> str:
    """The cache file's key: the records' fingerprint, and the rapidfuzz whose output
    (the vocabulary's order) the index holds."""
    return f"rapidfuzz-{rapidfuzz.__version__} {fp}"


# -- saving ------------------------------------------------------------------------------


def save(index: SearchIndex, cache: Path, fp: str | None = None) -> bool:
    """Write `index` to the `cache` file (atomically) for the next start; True if written.

    Only a complete index whose ordinals still line up with its records is written: every
    abstract indexed, no paper removed or replaced (`remove`, or `add` of a known id) since
    the build. `fp` is the fingerprint of the records it was built from, when known. A cache
    that cannot be written (read-only or full disk) is skipped: the next start rebuilds.
    """
    with index._lock:
        if index._removed or not index.abstracts_indexed:
            return False
        if fp is None:
            fp = fingerprint(index._records)
        state = _state(index)  # a copy: pickled outside the lock, which searches take too
    # The postings' arrays go after the pickle, raw, so that a load reads them straight
    # into arrays: inside the pickle each was read as bytes, then copied (twice its size).
    arrays = [a for pair in state.pop("fields") for a in pair]
    state["arrays"] = [(a.typecode, len(a)) for a in arrays]
    state["byteorder"] = sys.byteorder
    head = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    return write_cache(Path(cache), KIND, FORMAT, cache_key(fp), [head_piece(head), *arrays])


def _state(index: SearchIndex) -> dict:
    """The derived, catalog-only state of `index`, in a shape that pickles and loads fast
    and is what a loaded index keeps: each field's postings as two flat arrays over the
    sorted vocabulary (`FlatPostings`), not tens of thousands of small arrays."""
    vocab = index._vocab
    fields, shapes = [], []
    for post, tf in zip(index._post, index._tf):
        flat = post if isinstance(post, FlatPostings) else FlatPostings.of(vocab, post, len(index._ids), counts=tf)
        packed = array("B")
        packed.frombytes(flat.pack_counts())
        fields.append((*flat.arrays, packed))
        shapes.append((flat.segments, flat.bits, len(flat.counts)))
    return {
        "shapes": shapes,
        "n": len(index._ids),
        "fields": fields,
        "vocab": "\n".join(vocab),  # words are tokens: never whitespace, so a newline separates them
        # the title words' order, as places in the vocabulary (their strings are its own)
        "title_order": array("I", map(dict(zip(vocab, range(len(vocab)))).__getitem__, index._title_vocab)),
        "titles": list(index._titles),
        "years": {year: array("I", ordinals) for year, ordinals in index._years.items()},
        "venues": {venue: array("I", ordinals) for venue, ordinals in index._venues.items()},
        "acronyms": {acronym: " ".join(words) for acronym, words in index._acronyms.items()},
    }


# -- loading -----------------------------------------------------------------------------


def load(
    records: Iterable, cache: Path, fp: str | None = None, cls: type[SearchIndex] = SearchIndex
) -> SearchIndex | None:
    """The index of `records` read from `cache`, or None when the file is missing, was made
    from other records or by another version, or is damaged (never raises for a bad file).

    `fp` is `fingerprint(records)` when the caller already has it.
    """
    records = records if isinstance(records, list) else list(records)
    if fp is None:
        fp = fingerprint(records)
    with reading_cache(Path(cache), KIND, FORMAT, cache_key(fp)) as body:
        if body is None:
            return None  # missing, stale, foreign or damaged: never unpickled
        try:
            with gc_paused():
                state = pickle.loads(read_head_piece(body))
                arrays = [read_array(body, typecode, count) for typecode, count in state.pop("arrays")]
                if body.read(1) or state.pop("byteorder") != sys.byteorder:
                    raise ValueError("not the arrays this machine wrote")
                state["fields"] = list(zip(arrays[0::3], arrays[1::3], arrays[2::3], strict=True))
                return _restore(cls, records, state)
        except Exception:  # noqa: BLE001 - a cache must never stop the app: rebuild instead
            return None


def _restore(cls: type[SearchIndex], records: list, state: dict) -> SearchIndex:
    """A SearchIndex over `records` from a `_state` dict (raises on a malformed one)."""
    n = len(records)
    titles = state["titles"]
    if state["n"] != n or len(titles) != n:
        raise ValueError("the cache was made from another number of papers")
    index = cls()
    ids = [r.id for r in records]
    index._ids = ids
    index._ordinal = dict(zip(ids, range(n)))
    index._records = list(records)
    vocab = state["vocab"].split("\n") if state["vocab"] else []
    # flat, sharing the vocabulary's strings (FlatPostings checks that they line up)
    # the term frequencies stay packed until a search reads them
    if any(counted not in (0, len(flat)) for (_, flat, _), (_, _, counted) in zip(state["fields"], state["shapes"])):
        raise ValueError("the term frequencies do not line up with the postings")
    index._post = tuple(
        FlatPostings(vocab, starts, flat, segments, bits, packed_counts=packed)
        for (starts, flat, packed), (segments, bits, _) in zip(state["fields"], state["shapes"], strict=True)
    )
    if len(index._post) != 3:
        raise ValueError("damaged postings")
    index._titles = titles
    index._years.update(state["years"])
    index._venues.update(state["venues"])
    index._vocab = vocab
    index._by_length = None  # made at the first typo searched
    # in the build's order: the title words' order is the infix candidates' order
    index._title_vocab = list(map(vocab.__getitem__, state["title_order"]))
    index._abstracts_done = n
    index._acronyms = {acronym: tuple(words.split()) for acronym, words in state["acronyms"].items()}
    # the review columns and the annotations: from the records, never from the cache
    # (a PaperView's catalog fields read off its Paper: its __getattr__ is the slow path)
    index._index_reviews(0, [r.paper if type(r) is PaperView else r for r in records])
    index._status = [r.status for r in records]
    tags, notes = index._tags, index._notes
    for o, r in enumerate(records):
        if r.tags:
            tags[o] = tag_keys(r.tags)
        if r.notes:
            notes[o] = notes_key(r.notes)
    return index


def load_or_build(records: Iterable, cache_path: Path) -> SearchIndex:
    """The index of `records`, read from the `cache_path` file when it was made from exactly
    these papers (same ids in the same order, same texts) by this version, else built
    (abstracts included) and written there (atomically) for the next start. Status, tags
    and notes always come from `records`. A missing, stale or damaged cache is rebuilt, an
    unwritable one skipped; neither raises."""
    records = list(records)
    fp = fingerprint(records)
    index = load(records, cache_path, fp)
    if index is None:
        index = SearchIndex.build(records)
        save(index, cache_path, fp)
    return index


__all__ = ["FORMAT", "fingerprint", "load", "load_or_build", "save"]
