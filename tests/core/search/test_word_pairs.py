"""A whole field tokenised at once (`word_pairs.distinct_pairs`, numpy) gives exactly the
distinct words `tokens` gives each text, and how often it gives each, whatever the texts hold: every code point of
Unicode (non-BMP, lone surrogates, right-to-left scripts, combining marks, CJK, control
characters, odd whitespace), LaTeX accents and commands, words on either side of the
12 letters that fit in 64 bits; in one chunk or many, and when the first multipliers
tried hash two words alike."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import count

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.utils import default_process

from reader_tui.core.search import word_pairs
from reader_tui.core.text.tokens import tokens


def by_text(texts: list[str | None]) -> list[Counter[str]]:
    """`distinct_pairs` read back as each text's words and how often it uses each,
    checking on the way what `FlatPostings.of_pairs` needs: each word's texts in ascending
    order, none twice."""
    numbers: defaultdict[str, int] = defaultdict(count().__next__)
    pairs = word_pairs.distinct_pairs(texts, numbers.__getitem__)
    # read in slices of 3, as FlatPostings.of_pairs reads them in chunks
    words = [w for a in range(0, len(pairs), 3) for w in pairs.words[a : a + 3].tolist()]
    ordinals = [o for a in range(0, len(pairs), 3) for o in pairs.ordinals[a : a + 3].tolist()]
    assert words == pairs.words[:].tolist() and ordinals == pairs.ordinals[:].tolist()
    spelled = list(numbers)
    found: list[Counter[str]] = [Counter() for _ in texts]
    last: dict[int, int] = {}
    for word, ordinal, times in zip(words, ordinals, pairs.counts.tolist(), strict=True):
        assert last.get(word, -1) < ordinal
        last[word] = ordinal
        found[ordinal][spelled[word]] = times
    return found


def expected(texts: list[str | None]) -> list[Counter[str]]:
    return [Counter(tokens(text or "")) for text in texts]


def in_chunks(texts: list[str | None], doc_bits: int, chunk_bytes: int) -> list[Counter[str]]:
    """`by_text` with texts taken `2**doc_bits` at a time, cut into chunks of about
    `chunk_bytes` (a text longer than that is a chunk of its own)."""
    kept = word_pairs._DOC_BITS, word_pairs._CHUNK_BYTES
    word_pairs._DOC_BITS, word_pairs._CHUNK_BYTES = doc_bits, chunk_bytes
    try:
        return by_text(texts)
    finally:
        word_pairs._DOC_BITS, word_pairs._CHUNK_BYTES = kept


#: the product's chunking (one chunk for a dozen texts), and 4 texts a chunk cut at 64 bytes
ONE_CHUNK = (word_pairs._DOC_BITS, word_pairs._CHUNK_BYTES)
MANY_CHUNKS = (2, 64)


LATEX = [
    "\\'e", '\\"{u}', "\\c c", "{\\c{c}}", "\\'{\\i}", "\\ss e", "\\o", "\\AE", "\\mathbb{R}", "\\alpha",
    "\\", "\\textbf{Bold}", "{B}ayesian", "V{\\'e}lez", "$x^2$", "\\c\n c", "\\'",
]
OTHER = [
    "e\u0301", "\u05e9\u05b8\u05dc\u05d5\u05b9\u05dd", "\u0627\u064e\u0644", "\u202e", "\u200f", "中文 模型", "한국어",
    "\u1100\u1161", "\uf900", "\u2126", "𝒜𝒷𝒸", "😀", "\U00020000", "\x1b[31m", "\x7f", "\ufeff", "\u00ad", "ﬁ", "Ⅻ", "²",
    "\ud800", "\udfff",
]
WORDS = [
    "a", "Z", "0", "x86", "abcdefghijkl", "abcdefghijklm", "ABCDEFGHIJKL", "zzzzzzzzzzzz", "999999999999",
    "reinforcement", "representations", "l" * 40, "Log-Linear", "GRPO", "pre_training", "x86_64",
    "αβγ", "ΑΒΓ", "İstanbul", "\u212aelvin", "ｆｕｌｌ", "Straße", "Vélez",
    # 13-24 letters are read as two packed halves: words sharing a first half or a second
    "representation", "representationalism", "representationalisms", "abcdefghijklabcdefghijkl",
    "abcdefghijklabcdefghijklm", "abcdefghijklz", "zabcdefghijkl", "Representations", "reinforcementé",
]
SPACES = [" ", "\t", "\n", "\x00", "\x1c", "\x85", "\u00a0", "\u2028", "\u3000", "\u200b", "-", "_", "“", "”", "\\"]
PIECES = st.one_of(
    st.sampled_from(WORDS), st.sampled_from(SPACES), st.sampled_from(LATEX), st.sampled_from(OTHER),
    st.text(alphabet=st.characters(codec=None), max_size=8),
    st.text(alphabet=st.characters(codec=None, categories=["Cs", "Co", "Cn", "Mn", "Zs", "Cc"]), max_size=4),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyzAB0123456789", min_size=10, max_size=15),
    st.text(alphabet="abz09", min_size=12, max_size=26),  # long words that often meet again
)
TEXT = st.one_of(st.none(), st.lists(PIECES, max_size=14).map("".join))


# Each example is read in one chunk and in many: 400 examples for each chunking, as when
# they were two runs of this test, drawn once (drawing them was most of the test's time).
@settings(max_examples=400, deadline=None)
@given(st.lists(TEXT, max_size=12))
def test_every_text_gets_the_distinct_words_of_its_tokens(texts):
    want = expected(texts)
    assert in_chunks(texts, *ONE_CHUNK) == want
    assert in_chunks(texts, *MANY_CHUNKS) == want


def test_every_code_point_of_unicode():
    # each text a run of 64 consecutive code points (surrogates included), alone and
    # between ASCII letters, so each character is met inside a word and at its edges
    texts = []
    for low in range(0, 0x110000, 64):
        run = "".join(map(chr, range(low, low + 64)))
        texts += [run, "ab".join(run[i : i + 8] for i in range(0, 64, 8))]
    want = expected(texts)
    # the product's chunking: 17 chunks of 2,048 texts
    assert in_chunks(texts, *ONE_CHUNK) == want
    # and 3,251 chunks: slabs of 16 texts cut at 1 KB. (Chunks end between texts, where
    # a word ends anyway, so how a character is read does not depend on the chunk's size;
    # MANY_CHUNKS' one text a chunk made 19,602 chunks of numpy calls on a few words, 5 s.)
    assert in_chunks(texts, 4, 1024) == want


def test_a_multiplier_that_hashes_two_words_alike_is_passed_over(monkeypatch):
    # 0 hashes every word to 0: the next multiplier is taken. (Only words whose value
    # fills the keys' high bits are hashed: here the two of more than 12 letters, and
    # "transformer": 11 letters are worth 2**52 or more.)
    monkeypatch.setattr(word_pairs, "_MULTIPLIERS", (0, *word_pairs._MULTIPLIERS))
    texts = ["the cat sat on the mat", "a dog and a cat", "", None, "ünïcödé words and reinforcement learning",
             "representations transformer"]
    tried = []
    hashed = word_pairs._hashed

    def spy(np, values, text_of, known):
        tried.append(len(set(values.tolist())))
        return hashed(np, values, text_of, known)

    monkeypatch.setattr(word_pairs, "_hashed", spy)
    assert by_text(texts) == expected(texts)
    assert tried == [3]  # three distinct words hashed, which 0 would have hashed alike


def test_the_byte_table_is_default_process_for_ascii():
    for byte in range(128):
        kept = default_process(chr(byte))
        assert (word_pairs._DIGITS[byte] != 0) == bool(kept)
        if kept:
            assert word_pairs._LETTERS[word_pairs._DIGITS[byte]] == ord(kept)
    assert set(word_pairs._DIGITS[128:]) == {word_pairs._NON_ASCII}


def test_default_process_leaves_no_whitespace_but_the_space():
    # what lets a word end only at a space: str.split() splits at any whitespace
    every = "".join(map(chr, range(0x110000)))
    processed = default_process("a" + every + "a")
    assert len(processed) == len(every) + 2  # one character for one: positions hold
    assert not any(c.isspace() and c != " " for c in processed)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("{}{}ab_1 \\é\x00"), max_size=24))
def test_the_word_braces_pattern_reads_as_before(text):
    # `\{\{*` (a literal first, which `re` can skip to) instead of `\{+`: the same matches
    import re

    from reader_tui.core.text import tokens as T

    assert T._WORD_BRACES.sub(r"\1", text) == re.sub(r"\{+(\w*)\}+", r"\1", text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.integers(1, 37), min_size=1, max_size=30), max_size=40), st.integers(0, 9))
def test_packed_words_are_their_digits_in_base_37(words, gap):
    # `_packed` reads a word's value from two 8-byte windows at its start: the value
    # of its digits in base 37, first digit highest, for each length up to PACKED (a
    # longer word gets some value, replaced by its caller), whatever follows the word
    import numpy as np

    data, starts, ends = bytearray(b"\0"), [], []
    for digits in words:
        starts.append(len(data))
        data += bytes(digits)
        ends.append(len(data))
        data += b"\0" * (1 + gap) + bytes([37]) * gap  # a separator, then bytes to mask off
    found = word_pairs._packed(np, bytes(data) + word_pairs._PAD, np.array(starts, dtype=np.int64),
                               np.array(ends, dtype=np.int64))
    for digits, value in zip(words, found.tolist()):
        if len(digits) <= word_pairs.PACKED:
            assert value == sum(d * 37**k for k, d in enumerate(reversed(digits)))
