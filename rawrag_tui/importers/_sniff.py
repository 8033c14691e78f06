"""Looking at the start of a member to say which format it holds.

People rename exports and tools write partial ones, so a file's name can
only break ties; the content decides. A detector must never read a whole
multi-GB file to decide, so everything here looks at the first
:data:`SNIFF_BYTES` of a member only: for JSON, the shape of the first items
(which keys appear at which path, and the first values seen there), streamed
from that head with ijson's event parser; for text, the first lines.

Each member is sniffed once per source (results are cached on the
:class:`ExportSource`), however many detectors ask, and a detector looks at
no more than :data:`MAX_MEMBERS` members of a zip or folder, so a zip with
100,000 members is judged in bounded time.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .source import DamagedMember, ExportSource

#: How much of a member a sniff reads.
SNIFF_BYTES = 64 * 1024
#: Members of a zip or folder that detection looks at, at most.
MAX_MEMBERS = 1000
#: Nesting a sniff follows; deeper JSON is no export we know.
MAX_SNIFF_DEPTH = 64
#: Events a sniff reads from one head at most.
MAX_EVENTS = 20000

#: Names that are certainly not an export's text (media, archives, office files).
_BINARY = re.compile(
    r"\.(jpe?g|png|gif|webp|heic|bmp|tiff?|mp[34]|m4a|aac|opus|ogg|oga|wav|webm|mov|avi|mkv|pdf|zip|gz|"
    r"tgz|7z|rar|docx?|xlsx?|pptx?|vcf|ics|db|sqlite|ttf|woff2?|ico|svg|css|js)$",
    re.IGNORECASE,
)


@dataclass
class JsonHead:
    """The shape of the first bytes of a JSON member.

    ``keys[path]`` holds the keys seen in objects at ``path`` (ijson prefix
    syntax: ``""`` the top, ``item`` an array's elements, ``a.b`` nested);
    ``values[path]`` the first few scalar values seen at ``path``.
    """

    top: str | None = None  # "map", "array", or None when not JSON
    keys: dict[str, set[str]] = field(default_factory=dict)
    values: dict[str, list[Any]] = field(default_factory=dict)
    complete: bool = False  # the whole member fitted in the head
    items: dict[str, int] = field(default_factory=dict)  # array path -> elements started

    def has(self, path: str, *names: str) -> bool:
        """True when the object at ``path`` showed every one of ``names``."""
        seen = self.keys.get(path, ())
        return all(n in seen for n in names)

    def any_key(self, path: str, names: set[str] | frozenset[str]) -> bool:
        return bool(self.keys.get(path, set()) & names)

    def value_in(self, path: str, allowed: set[str] | frozenset[str]) -> bool:
        return any(isinstance(v, str) and v in allowed for v in self.values.get(path, ()))


def json_head(data: bytes) -> JsonHead:
    """Follow the JSON events of ``data`` (a head, usually cut mid-token) as far as they go."""
    import ijson

    head = JsonHead()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    stripped = data.lstrip()
    if stripped[:1] not in (b"{", b"["):
        return head
    # Each frame: [kind, prefix, current key]
    stack: list[list] = []
    events = 0

    def value_prefix() -> str:
        if not stack:
            return ""
        kind, prefix, key = stack[-1]
        inner = "item" if kind == "array" else (key or "")
        return f"{prefix}.{inner}" if prefix else inner

    try:
        for event, value in ijson.basic_parse(io.BytesIO(stripped), use_float=True):
            events += 1
            if events > MAX_EVENTS:
                return head
            if event in ("start_map", "start_array"):
                prefix = value_prefix()
                if stack and stack[-1][0] == "array":
                    head.items[stack[-1][1]] = head.items.get(stack[-1][1], 0) + 1
                if not stack:
                    head.top = "map" if event == "start_map" else "array"
                stack.append(["map" if event == "start_map" else "array", prefix, None])
                if len(stack) > MAX_SNIFF_DEPTH:
                    return head
            elif event in ("end_map", "end_array"):
                stack.pop()
                if not stack:
                    head.complete = True
                    return head
            elif event == "map_key":
                stack[-1][2] = value
                head.keys.setdefault(stack[-1][1], set()).add(value)
            else:
                prefix = value_prefix()
                if stack and stack[-1][0] == "array":
                    parent = stack[-1][1]
                    head.items[parent] = head.items.get(parent, 0) + 1
                seen = head.values.setdefault(prefix, [])
                if len(seen) < 8:
                    seen.append(value)
    except Exception:  # noqa: BLE001 - a head is cut mid-token, or is not JSON: keep what was seen
        pass
    return head


def read_head(source: ExportSource, name: str, size: int = SNIFF_BYTES) -> bytes:
    """The first ``size`` bytes of a member; b'' when it cannot be read."""
    key = ("bytes", name, size)
    cache = source.cache
    if key not in cache:
        try:
            with source.open(name) as fh:
                cache[key] = fh.read(size)
        except DamagedMember:
            raise  # say which member is damaged, not "no known format"
        except Exception:  # noqa: BLE001 - unreadable members simply match no format
            cache[key] = b""
    return cache[key]


def head_of(source: ExportSource, name: str) -> JsonHead:
    """The (cached) JSON shape of a member's head."""
    key = ("json", name)
    cache = source.cache
    if key not in cache:
        data = read_head(source, name)
        cache[key] = json_head(data) if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[") else JsonHead()
    return cache[key]


def text_lines(source: ExportSource, name: str, limit: int = 40) -> list[str]:
    """The first non-blank lines of a member as text (bad UTF-8 replaced); cached."""
    key = ("lines", name)
    cache = source.cache
    if key not in cache:
        data = read_head(source, name)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        if b"\0" in data[:4096]:
            cache[key] = []  # binary (or UTF-16): not a text export we read
        else:
            lines = data.decode("utf-8", "replace").splitlines()
            if len(data) == SNIFF_BYTES and lines:
                lines = lines[:-1]  # the last one is cut
            cache[key] = [ln for ln in lines if ln.strip("\u200e\u200f\ufeff \t")][:limit]
    return cache[key]


def candidates(
    source: ExportSource, suffixes: tuple[str, ...] | None = None, *, limit: int | None = MAX_MEMBERS
) -> list[str]:
    """Members worth sniffing, shallowest first; the file itself when alone.

    ``suffixes`` keeps names with these endings or with no extension; None
    keeps everything that is not plainly media or an archive. ``limit``
    bounds the list for detection; parsing passes None to see all.
    """
    if source.kind == "file":
        return source.names()
    key = ("candidates", suffixes, limit)
    cache = source.cache
    if key not in cache:
        if ("texty",) not in cache:  # every non-media member with its base name, shallowest first
            texty = []
            for name in source.names():
                base = name.rsplit("/", 1)[-1]
                if "__MACOSX" in name or base.startswith(".") or _BINARY.search(base):
                    continue
                texty.append((name.count("/"), name, base.lower()))
            texty.sort()
            cache[("texty",)] = texty
        out = []
        for _, name, base in cache[("texty",)]:
            if suffixes is not None and "." in base and not base.endswith(suffixes):
                continue
            out.append(name)
            if limit is not None and len(out) >= limit:
                break
        cache[key] = out
    return list(cache[key])


#: A format's content rule for one member: its confidence, 0 when it is not that format.
Sniffer = Callable[[ExportSource, str], float]


def best_json_score(source: ExportSource, sniff: Sniffer) -> float:
    """A JSON format's detection: its best confidence over the members worth sniffing."""
    return max((sniff(source, n) for n in candidates(source, (".json",))), default=0.0)


def json_members(source: ExportSource, sniff: Sniffer, forced: bool = False) -> list[str]:
    """The JSON members the content rule accepts (all of them), in sniffing order; a
    lone file is taken as it is when the format was forced (``--format``)."""
    if source.kind == "file":
        return source.names() if forced or sniff(source, source.names()[0]) else []
    return [n for n in candidates(source, (".json",), limit=None) if sniff(source, n)]


def conversations_at(head: JsonHead) -> str | None:
    """Where a member's conversations are (ijson prefix): a list, a
    ``{"conversations": [...]}`` wrapper, or one conversation object."""
    if head.top == "array":
        return "item"
    if head.top == "map":
        return "conversations.item" if head.has("", "conversations") else ""
    return None
