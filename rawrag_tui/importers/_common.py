"""Helpers every importer shares: JSON with error locations, times, stable ids.

Importers must end either in clean records or in one ``ImportFormatError``
naming file, format and place, whatever bytes they are fed. The helpers here
make that cheap: JSON loading that reports line/column or JSON path, value
accessors that raise a located error instead of a bare ``TypeError``, and a
guard that turns any leftover structural surprise into the same error.
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from functools import wraps
from typing import IO, Any

from ..errors import ImportFormatError
from .records import Conversation, Message
from .source import ExportSource

#: How much of a member detectors look at.
HEAD_BYTES = 64 * 1024

#: Exceptions that mean "the content is not what this format promises". They
#: become one ImportFormatError line; anything else stays a bug with traceback.
STRUCTURAL_ERRORS: tuple[type[BaseException], ...] = (
    KeyError,
    TypeError,
    AttributeError,
    ValueError,  # includes json.JSONDecodeError, UnicodeDecodeError
    IndexError,
    OverflowError,
    RecursionError,
    EOFError,
    zlib.error,
    zipfile.BadZipFile,
)


class Cursor:
    """Where a parser is, so a late surprise can still name the place."""

    __slots__ = ("member", "where")

    def __init__(self) -> None:
        self.member: str | None = None
        self.where: str | None = None

    def at(self, member: str | None = None, where: str | None = None) -> Cursor:
        if member is not None:
            self.member = member
        self.where = where
        return self


def error_text(exc: BaseException) -> str:
    """The first line of an exception's message, as text: the JSON parser's
    errors carry bytes, whose repr (``b'lexical error…\\xb5'``) is no message."""
    first = exc.args[0] if exc.args else None
    text = first.decode("utf-8", "replace") if isinstance(first, bytes) else str(exc)
    text = text.strip()
    return text.splitlines()[0].strip() if text else ""


def describe(exc: BaseException) -> str:
    """One readable line for an exception raised by malformed content."""
    text = error_text(exc)
    name = type(exc).__name__
    if isinstance(exc, KeyError):
        return f"missing field {text}"
    if isinstance(exc, (TypeError, AttributeError)):
        return f"unexpected value type ({text})"
    return f"{name}: {text}" if text else name


def guarded(fmt: str) -> Callable:
    """Wrap ``parse(source, stats)`` so no structural exception escapes raw.

    The wrapped generator passes a :class:`Cursor` as keyword ``cursor``; on
    an unexpected error the cursor's member and place go into the message.
    """

    def decorate(parse: Callable[..., Iterator[Conversation]]) -> Callable[..., Iterator[Conversation]]:
        @wraps(parse)
        def wrapper(source: ExportSource, stats) -> Iterator[Conversation]:
            cursor = Cursor()
            try:
                yield from parse(source, stats, cursor=cursor)
                stats.verdict(source.path, fmt)
            except ImportFormatError:
                raise
            except STRUCTURAL_ERRORS + _ijson_errors() as exc:
                path = source.display(cursor.member) if cursor.member else source.path
                raise ImportFormatError(path, fmt, describe(exc), cursor.where) from None

        return wrapper

    return decorate


def read_one(stats, source: ExportSource, member: str | None, fmt: str, where: str, build: Callable, *args):
    """Build one record (a message, a line); one that cannot be read is
    skipped, counted and its place kept, so one odd record never costs the file.

    Returns what ``build`` returned (None for a record left out on purpose)
    or None for an unreadable one.
    """
    try:
        out = build(*args)
    except STRUCTURAL_ERRORS as exc:
        stats.bad(source.display(member) if member else source.path, fmt, where, describe(exc))
        return None
    stats.ok()
    return out


def _ijson_errors() -> tuple[type[BaseException], ...]:
    import ijson

    return (ijson.JSONError, ijson.IncompleteJSONError)


# -- members and detection ---------------------------------------------------


def head(source: ExportSource, name: str, size: int = HEAD_BYTES) -> str:
    """The first bytes of a member as text, for detectors; '' if unreadable."""
    try:
        with source.open(name) as fh:
            data = fh.read(size)
    except (OSError,) + STRUCTURAL_ERRORS:  # one tuple: mypy cannot read a starred one
        return ""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", "replace")


def basename(name: str) -> str:
    return name.rsplit("/", 1)[-1]


def dirname(name: str) -> str:
    return name.rsplit("/", 1)[0] if "/" in name else ""


# -- JSON ---------------------------------------------------------------------


def load_json(source: ExportSource, name: str, fmt: str) -> Any:
    """A whole (small) JSON member, or an error naming line and column."""
    try:
        raw = source.read_bytes(name)
    except (OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
        raise ImportFormatError(source.display(name), fmt, f"cannot read: {exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(source.display(name), fmt, "not UTF-8 text", f"byte {exc.start}") from None
    if not text.strip():
        raise ImportFormatError(source.display(name), fmt, "empty file")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(
            source.display(name), fmt, f"malformed JSON: {exc.msg}", f"line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise ImportFormatError(source.display(name), fmt, "JSON nested too deeply") from None


#: JSON nesting a streamed member may have. Real exports nest a dozen levels;
#: ijson keeps every open level's path, so a file nested 100,000 deep would
#: cost memory quadratic in its depth (gigabytes) before failing.
MAX_JSON_DEPTH = 512
#: Bytes per slice the depth guard looks at.
_SLICE = 4096


class _CountingReader:
    """A byte stream that remembers how far it has been read (for locations),
    and refuses JSON nested deeper than :data:`MAX_JSON_DEPTH` before ijson
    sees it.

    The guard is cheap: per 4 KiB slice it counts brackets (C speed) to bound
    the depth from above, ignoring strings. Only when that bound passes the
    limit (deep nesting, or brackets inside strings) does it measure the
    exact depth once, with ijson's event parser, on a fresh read of the member.
    """

    def __init__(self, fh: IO[bytes], source: ExportSource | None = None, name: str | None = None,
                 fmt: str = "json"):
        self._fh = fh
        self.offset = 0
        self._source, self._name, self._fmt = source, name, fmt
        self._estimate = 0
        self._checked = source is None

    def read(self, n: int = -1) -> bytes:
        data = self._fh.read(n)
        if not self._checked and data:
            for start in range(0, len(data), _SLICE):
                part = data[start:start + _SLICE]
                opens = part.count(b"[") + part.count(b"{")
                if self._estimate + opens > MAX_JSON_DEPTH:
                    self._exact_check()
                    break
                self._estimate = max(0, self._estimate + opens - part.count(b"]") - part.count(b"}"))
        self.offset += len(data)
        return data

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> _CountingReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _exact_check(self) -> None:
        self._checked = True
        assert self._source is not None and self._name is not None
        depth = json_depth(self._source, self._name)
        if depth > MAX_JSON_DEPTH:
            raise ImportFormatError(
                self._source.display(self._name), self._fmt,
                f"JSON nested more than {MAX_JSON_DEPTH} levels deep; no export nests like that",
            )


def json_depth(source: ExportSource, name: str) -> int:
    """The deepest nesting in a member, stopping as soon as it passes the limit."""
    import ijson

    depth = deepest = 0
    with source.open(name) as fh:
        try:
            for event, _ in ijson.basic_parse(fh):
                if event in ("start_map", "start_array"):
                    depth += 1
                    if depth > MAX_JSON_DEPTH:
                        return depth
                    deepest = max(deepest, depth)
                elif event in ("end_map", "end_array"):
                    depth -= 1
        except Exception:  # noqa: BLE001 - malformed JSON: the real parse reports it with its place
            pass
    return deepest


def json_stream(source: ExportSource, name: str, fmt: str) -> _CountingReader:
    """A member opened for ijson, with the depth guard. Close with ``.close()``."""
    return _CountingReader(source.open(name), source, name, fmt)


def first_char(source: ExportSource, name: str) -> str:
    """The first non-blank character of a member ('' when blank)."""
    with source.open(name) as fh:
        while True:
            chunk = fh.read(4096)
            if not chunk:
                return ""
            stripped = chunk.lstrip(b"\xef\xbb\xbf \t\r\n")
            if stripped:
                return chr(stripped[0])


def stream_items(source: ExportSource, name: str, fmt: str, prefix: str, label: str) -> Iterator[Any]:
    """Items of the array at ``prefix`` (ijson syntax) of a member, one at a time.

    Memory stays at one item however big the file. A parse error names the
    item index and the byte offset reached.
    """
    import ijson

    index = -1
    with json_stream(source, name, fmt) as reader:
        try:
            # index outlives the loop: the error below names the item that failed.
            for index, item in enumerate(ijson.items(reader, prefix, use_float=True)):  # noqa: B007
                yield item
        except (ijson.JSONError, ijson.IncompleteJSONError, UnicodeDecodeError, EOFError, zlib.error) as exc:
            problem = error_text(exc) or type(exc).__name__
            raise ImportFormatError(
                source.display(name),
                fmt,
                f"malformed JSON: {problem[:120]}",
                f"{label}[{index + 1}], before byte {reader.offset}",
            ) from None


def scalars_before(
    source: ExportSource, name: str, stop_key: str, keys: set[str], fmt: str = "json"
) -> dict[str, Any]:
    """Top-level scalar fields of a JSON object that precede ``stop_key``.

    Lets a streaming parser learn a chat's name and id without loading its
    messages. Reads only up to ``stop_key``.
    """
    import ijson

    found: dict[str, Any] = {}
    with json_stream(source, name, fmt) as fh:
        current = None
        for prefix, event, value in ijson.parse(fh, use_float=True):
            if prefix == "" and event == "map_key":
                if value == stop_key:
                    break
                current = value
            elif prefix == current and current in keys and event in ("string", "number", "boolean", "null"):
                found[current] = value
    return found


# -- values -------------------------------------------------------------------


_SURROGATES = re.compile("[\ud800-\udfff]")


def text_of(value: Any, what: str) -> str:
    """A string field (None -> ''), cleaned of lone surrogates a DB would refuse."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise TypeError(f"{what} should be text, got {type(value).__name__}")
    text = value if isinstance(value, str) else str(value)
    if _SURROGATES.search(text):
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def id_of(value: Any, what: str) -> str:
    """An identifier field: non-empty text or integer, as a string."""
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise ValueError(f"{what} missing or not an id ({value!r:.40})")
    return text_of(value, what)


def dict_of(value: Any, what: str) -> dict:
    if not isinstance(value, dict):
        raise TypeError(f"{what} should be an object, got {type(value).__name__}")
    return value


def list_of(value: Any, what: str, allow_none: bool = True) -> list:
    if value is None and allow_none:
        return []
    if not isinstance(value, list):
        raise TypeError(f"{what} should be a list, got {type(value).__name__}")
    return value


def maybe_dict(value: Any) -> dict:
    """Optional nested object: anything but a dict counts as absent."""
    return value if isinstance(value, dict) else {}


# -- times --------------------------------------------------------------------


def from_unix(value: Any, what: str = "time") -> datetime | None:
    """Epoch seconds (number or numeric string) -> aware UTC; None stays None."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"{what} is not a time: {value!r}")
    if isinstance(value, str):
        # Exact, not through float: Slack's "1709280060.000300" keeps its microseconds.
        sec, _, frac = value.strip().partition(".")
        if not (
            sec.isascii() and sec.isdigit() and len(sec) <= 11
            and (not frac or (frac.isascii() and frac.isdigit() and len(frac) <= 9))
        ):
            raise ValueError(f"{what} is not epoch seconds: {value!r:.40}")
        seconds = int(sec)
        if seconds >= 32503680000:
            raise ValueError(f"{what} is not a plausible time: {value!r:.40}")
        return datetime.fromtimestamp(seconds, tz=UTC) + timedelta(microseconds=int(frac[:6].ljust(6, "0")))
    if not isinstance(value, (int, float)) or not (0 <= value < 32503680000):  # before year 3000
        raise ValueError(f"{what} is not a plausible time: {value!r:.40}")
    return datetime.fromtimestamp(value, tz=UTC)


def from_iso(value: Any, what: str = "time", naive_ok: bool = False) -> datetime | None:
    """ISO-8601 text -> aware UTC (or naive local when allowed and zone-less)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ValueError(f"{what} is not a time: {value!r:.40}")
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{what} is not an ISO time: {value!r:.40}") from None
    if stamp.tzinfo is None:
        if naive_ok:
            return stamp
        raise ValueError(f"{what} has no time zone: {value!r:.40}")
    return stamp.astimezone(UTC)


# -- ids and titles -------------------------------------------------------------


def stable_id(*parts: object) -> str:
    """A short id that is the same every time for the same parts."""
    digest = hashlib.sha256("\x1f".join("" if p is None else str(p) for p in parts).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:20]


def fallback_title(messages: list[Message], default: str = "(untitled)") -> str:
    """A title for an untitled conversation: the start of its first message."""
    for msg in messages:
        line = " ".join(msg.text.split())
        if line:
            return line if len(line) <= 60 else line[:59].rstrip() + "…"
    return default


def unique_by_id(messages: list[Message], stats, kind: str = "duplicate") -> list[Message]:
    """Drop repeats of an external id (overlapping exports), first wins, counted."""
    seen: set[str] = set()
    out: list[Message] = []
    for msg in messages:
        if msg.external_id in seen:
            stats.skip(kind)
            continue
        seen.add(msg.external_id)
        out.append(msg)
    return out


def tree_order(
    node_ids: list[str],
    parent_of: dict[str, str | None],
    main_leaf: str | None,
) -> tuple[list[str], set[str]]:
    """Order a message tree for reading: the shown branch first, then the rest.

    Returns (ids in depth-first order, children on the shown branch visited
    first; ids on the shown branch). Iterative (trees can be thousands deep)
    and safe against cycles and dangling parents.
    """
    known = set(node_ids)
    main: list[str] = []
    seen: set[str] = set()
    node = main_leaf
    while node is not None and node in known and node not in seen:
        seen.add(node)
        main.append(node)
        node = parent_of.get(node)
    main_set = set(main)
    children: dict[str | None, list[str]] = {}
    roots: list[str] = []
    for nid in node_ids:
        parent = parent_of.get(nid)
        if parent is None or parent not in known or parent == nid:
            roots.append(nid)
        else:
            children.setdefault(parent, []).append(nid)
    order: list[str] = []
    visited: set[str] = set()

    def push_sorted(stack: list[str], ids: list[str]) -> None:
        # The stack pops its last item first: the shown-branch child goes last.
        stack.extend(sorted(ids, key=lambda i: i in main_set))

    stack: list[str] = []
    push_sorted(stack, list(reversed(roots)))
    while stack:
        nid = stack.pop()
        if nid in visited:
            continue
        visited.add(nid)
        order.append(nid)
        kids = children.get(nid, [])
        # Reverse so that export order is kept among siblings, shown one first.
        push_sorted(stack, list(reversed(kids)))
    # Nodes only reachable through a cycle: keep them, in export order.
    for nid in node_ids:
        if nid not in visited:
            visited.add(nid)
            order.append(nid)
    return order, main_set


class Salvage:
    """Chat-assistant exports (ChatGPT, Claude): one broken conversation is
    reported and skipped, the rest import; the same conversation twice counts once.

    ``take`` builds one conversation and returns it, or None when it was
    broken, a duplicate or empty (each counted); ``finish`` raises when the
    export held nothing usable at all.
    """

    def __init__(self, source: ExportSource, fmt: str, stats):
        self.source, self.fmt, self.stats = source, fmt, stats
        self.seen: set[str] = set()
        self.total = self.yielded = self.broken = 0

    def take(self, raw: Any, where: str, member: str, build: Callable, id_key: str):
        from .records import ParseStats

        self.total += 1
        local = ParseStats(early_verdict=False)  # a broken conversation counts no skips
        try:
            conv = build(raw, local)
        except STRUCTURAL_ERRORS as exc:
            label = raw.get(id_key) if isinstance(raw, dict) else None
            self.broken += 1
            self.stats.bad(
                self.source.display(member), self.fmt,
                where + (f" ({id_key} {label})" if isinstance(label, str) else ""),
                f"unreadable conversation: {describe(exc)}",
            )
            return None
        if conv.external_id in self.seen:
            self.stats.skip("duplicate_conversation")
            self.stats.ok()
            return None
        self.stats.absorb(local)
        self.seen.add(conv.external_id)
        if not conv.messages:
            self.stats.skip("empty_conversation")
            return None
        self.yielded += 1
        return conv

    def finish(self, member: str) -> None:
        if self.total == 0:
            raise ImportFormatError(self.source.display(member), self.fmt, "the export holds no conversations")
        if self.yielded == 0 and self.broken == self.total:
            first = self.stats.places[0] if self.stats.places else {"where": "?", "problem": "?"}
            raise ImportFormatError(
                self.source.display(member), self.fmt,
                f"all {self.total} conversations are broken; first: {first['where']}: {first['problem']}",
            )
