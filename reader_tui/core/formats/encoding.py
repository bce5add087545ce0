"""A file's bytes as text: its byte-order mark, the encoding the user named, else UTF-8
with the bytes that are not UTF-8 read as Windows-1252.

Bibliographies in Latin-1 and Windows-1252 are still common (old BibTeX files, JabRef's
default on Windows): refusing them loses the whole file for a few accented letters.
Every byte that is not part of valid UTF-8 is read as Windows-1252, a superset of the
printable Latin-1, and the five bytes Windows-1252 leaves undefined as Latin-1; valid
UTF-8 stays UTF-8, so a file that is UTF-8 with a pasted-in Latin-1 line reads right
too. The import report then carries one warning naming the first line where that
happened, so the user can name the real encoding (`--encoding NAME`) when it was another.

A byte-order mark decides over everything (UTF-8, UTF-16 and UTF-32, either order): a
file that carries one says what it is. A named encoding is strict: a byte that is not
valid in it fails the file, naming the line.
"""

from __future__ import annotations

import codecs
import re
import threading

# No import of `base`: it reads files through this module. Failures are `Undecodable`,
# warnings (line, message) pairs; the importers make them ImportFailure / ImportProblem.

#: Byte-order marks, longest first: UTF-32-LE's starts with UTF-16-LE's.
BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
FALLBACK = "Windows-1252"
_ERRORS = "reader_tui.windows_1252"
#: How many bytes this thread's decoding read as Windows-1252 (codecs error handlers are
#: process-wide: the count is kept per thread, as a TUI import runs on a worker).
_read_as_fallback = threading.local()


def _as_windows_1252(error: UnicodeError) -> tuple[str, int]:
    """The codecs error handler: the bytes UTF-8 could not read, as Windows-1252 (Latin-1
    where Windows-1252 has no character)."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start : error.end]
    _read_as_fallback.count = getattr(_read_as_fallback, "count", 0) + len(bad)
    return "".join(_byte_text(byte) for byte in bad), error.end


def _byte_text(byte: int) -> str:
    try:
        return bytes([byte]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(byte)  # 0x81, 0x8d, 0x8f, 0x90, 0x9d: Latin-1's C1 control


codecs.register_error(_ERRORS, _as_windows_1252)


def encoding_name(name: str) -> str:
    """The codec `name` stands for ("latin1" -> "iso8859-1"). Raises ValueError with a
    one-line message when Python has no text encoding of that name."""
    try:
        info = codecs.lookup(name)
    except (LookupError, TypeError, ValueError):
        info = None
    # `bytes.decode` refuses the codecs that are not text encodings ("zlib", "rot13") by
    # this flag; an empty string gets past that check, so it is read here.
    if info is None or not getattr(info, "_is_text_encoding", True):
        raise ValueError(f"unknown encoding {name!r} (for example: utf-8, cp1252, latin-1, utf-16)")
    return info.name


def bom_encoding(raw: bytes) -> tuple[str, int] | None:
    """The encoding a byte-order mark at the start of `raw` names, and the mark's length."""
    for bom, name in BOMS:
        if raw.startswith(bom):
            return name, len(bom)
    return None


class Undecodable(ValueError):
    """A file that cannot be read in the encoding it says or was named: `str()` is the
    message, `line` where (None for an unknown encoding)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def decode_file(raw: bytes, encoding: str | None = None) -> tuple[str, tuple[int, str] | None]:
    """The text of a file's bytes `raw` (without its byte-order mark), and the warning
    (line, message) that says where bytes that are not UTF-8 were read as Windows-1252
    (see the module docstring). Raises Undecodable when a byte-order mark or `encoding`
    is given and a byte is not valid in it, or when `encoding` is unknown."""
    marked = bom_encoding(raw)
    if marked is not None:
        name, length = marked
        return _strict(raw[length:], name, MARKED), None
    if encoding is not None:
        try:
            name = encoding_name(encoding)
        except ValueError as error:
            raise Undecodable(str(error)) from None
        return _strict(raw, name, NAMED), None
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as error:
        first = error.start
    text, count = utf8_with_fallback(raw)
    return text, (_line_of(raw, first), fallback_message(count, _byte_text(raw[first])))


def utf8_with_fallback(raw: bytes) -> tuple[str, int]:
    """`raw` as UTF-8, each byte that is not valid UTF-8 read as Windows-1252; and how
    many bytes were."""
    _read_as_fallback.count = 0
    text = raw.decode("utf-8", _ERRORS)
    return text, _read_as_fallback.count


def fallback_message(count: int, first: str) -> str:
    """The import report's warning that `count` bytes of the file were not UTF-8, the
    first of them (on the warning's line) read as `first`."""
    return (
        f"not UTF-8: {count:,} byte{'s' if count != 1 else ''} read as {FALLBACK} (the first on this line, "
        f"as {first!r}); if a character looks wrong, import the file again with "
        "--encoding NAME (its encoding, e.g. latin-1, cp1250, mac-roman)"
    )


def first_fallback(raw: bytes) -> tuple[int, str] | None:
    """Where the first byte of `raw` that is not valid UTF-8 is, and what it is read as;
    None when `raw` is UTF-8."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start, _byte_text(raw[error.start])
    return None


def _strict(raw: bytes, name: str, why: str) -> str:
    try:
        return raw.decode(name)
    except UnicodeDecodeError as error:
        line = raw[: error.start].decode(name, "replace").count("\n") + 1
        raise Undecodable(invalid_byte_message(raw[error.start], name, why), line) from None


#: Why a file is read in the encoding it is: what `invalid_byte` says of it.
NAMED = "the encoding --encoding names"
MARKED = "the encoding its byte-order mark names"


def invalid_byte_message(byte: int, name: str, why: str) -> str:
    """The one-line failure of a file with a `byte` that is not valid in the encoding `name`."""
    return f"byte 0x{byte:02x} is not valid {name} ({why}); name the file's encoding with --encoding NAME"


def _line_of(raw: bytes, offset: int) -> int:
    """The line `offset` is on, counting LF, CRLF and a lone CR as one line break each."""
    head = raw[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


# -- C1 controls that stand for Windows-1252 punctuation ----------------------------------

#: C1 control character -> the Windows-1252 character its byte stands for. Text that went
#: through a Latin-1 decoder on its way from Windows (a web form, an old database) holds
#: U+0096 for an en dash, U+0093/U+0094 for quotes: controls nobody types, which the
#: exporters and the screen cannot show, so the words they sat between ran together. The
#: five bytes Windows-1252 leaves undefined stay as they are.
C1_AS_WINDOWS_1252 = {
    code: text
    for code in range(0x80, 0xA0)
    if (text := _byte_text(code)) != chr(code)
}
_C1 = re.compile("[\x80-\x9f]")


def c1_as_windows_1252(text: str) -> str:
    """`text` with each C1 control that stands for a Windows-1252 character replaced by it."""
    return text.translate(C1_AS_WINDOWS_1252) if _C1.search(text) else text


def first_c1(text: str) -> int | None:
    """Where the first C1 control that stands for a Windows-1252 character is in `text`."""
    for match in _C1.finditer(text):
        if ord(match.group()) in C1_AS_WINDOWS_1252:
            return match.start()
    return None


def c1_message(count: int, first: str) -> str:
    """The import report's warning that `count` C1 controls (the first, `first`, on the
    warning's line) were read as the Windows-1252 characters they stand for."""
    return (
        f"{count:,} control character{'s' if count != 1 else ''} U+0080-U+009F, Windows-1252 punctuation"
        f" mis-decoded on the way, read as the characters they stand for (the first on this line:"
        f" U+{ord(first):04X} as {C1_AS_WINDOWS_1252[ord(first)]!r})"
    )


def count_c1(text: str) -> int:
    """How many C1 controls in `text` stand for a Windows-1252 character."""
    return sum(1 for ch in _C1.findall(text) if ord(ch) in C1_AS_WINDOWS_1252)
