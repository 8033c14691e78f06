"""Claude Code session logs (``~/.claude/projects/<project>/<session>.jsonl``).

One JSONL file is one session and becomes one conversation. The log is
written while the session runs, so a crash leaves a partial last line, and
new line types keep appearing: every line that is not JSON is skipped and
reported with its line number, and every type we do not know is ignored.
Only when most lines of a file are unreadable is the file refused, because
then it is probably not a session log at all.

What the person typed and what Claude answered is imported. What the harness
injected (``isMeta`` lines, ``<system-reminder>`` and friends, local command
output, the model-written compaction summary) is not the person's words and
is left out, counted. Tool calls are counted and their names kept on the
reply in ``extra["tools"]``; tool results and thinking are counted only.
Sidechains (subagent work, inline or in ``subagents/agent-*.jsonl`` files)
are model-to-model prompts and are skipped.

One API response is streamed over several lines sharing ``message.id``;
they are merged into one reply. Messages form a tree through ``parentUuid``;
a rewind (a typed prompt with a sibling prompt) leaves the abandoned turns
marked off the main branch, while the many false forks the recorder makes
(parallel tool calls, hook lines) do not hide anything. A resumed session
that replays earlier messages under the same ``uuid`` imports them once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from .records import UNREADABLE_SHARE, Conversation, Message, ParseStats, TooManyUnreadable
from .source import ExportSource

NAME = "claude_code"
#: A file name that breaks a tie between equally sure detectors (content decides first).
NAME_HINT = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$", re.I)

#: Lines a sniff reads at most, and bytes of one line it looks at.
SNIFF_LINES = 50
SNIFF_LINE_BYTES = 256 * 1024
SNIFF_ERRORS: tuple[type[BaseException], ...] = (OSError, *c.STRUCTURAL_ERRORS)

_TEXT_SUFFIXES = (".jsonl", ".ndjson", ".json", ".txt", ".log", ".jsonlines")
_BOOKKEEPING = {"file-history-snapshot", "queue-operation", "ai-title", "last-prompt", "custom-title", "agent-name"}
_COMPACT_PREFIX = "This session is being continued from a previous conversation"
#: Harness markup whose whole block is not the person's words.
_DROP_TAGS = (
    "system-reminder", "user-memory-input", "ide_opened_file", "ide_selection", "task-notification",
    "user-prompt-submit-hook", "local-command-caveat", "local-command-stdout", "local-command-stderr",
    "bash-stdout", "bash-stderr", "command-message",
)
_DROP_RE = re.compile(r"<({})>.*?</\1>".format("|".join(re.escape(t) for t in _DROP_TAGS)), re.S)
_COMMAND_RE = re.compile(r"<command-name>(.*?)</command-name>", re.S)
_ARGS_RE = re.compile(r"<command-args>(.*?)</command-args>", re.S)
_BASH_RE = re.compile(r"<bash-input>(.*?)</bash-input>", re.S)


# -- lines, with tolerance -------------------------------------------------------


class Lines:
    """The JSON objects of one JSONL member, unreadable lines skipped and reported.

    Each line is one record for ``ParseStats``: read (``ok``) or unreadable
    (``bad``, with its line number). ``demote`` is for a line that is JSON
    but not what the format promises. ``finish`` refuses the file when its
    unreadable lines outnumber the readable ones: a crash spoils a line or
    two, a file of another kind spoils nearly all of them.
    """

    def __init__(self, source: ExportSource, member: str, fmt: str, stats: ParseStats):
        self.source, self.member, self.fmt, self.stats = source, member, fmt, stats
        self.good = self.bad_count = 0
        self.first_bad: str | None = None

    def __iter__(self) -> Iterator[tuple[int, dict]]:
        last: tuple[int, bytes] | None = None
        for lineno, raw in enumerate(self.source.iter_lines(self.member), start=1):
            if last is not None:
                yield from self._one(*last, final=False)
            last = (lineno, raw)
        if last is not None:
            yield from self._one(*last, final=True)

    def _one(self, lineno: int, raw: bytes, final: bool) -> Iterator[tuple[int, dict]]:
        if not raw.strip():
            return
        try:
            obj = json.loads(raw.decode("utf-8-sig" if lineno == 1 else "utf-8"))
        except UnicodeDecodeError:
            self._bad(lineno, "not UTF-8 text")
            return
        except json.JSONDecodeError as exc:
            cut = final and not raw.endswith(b"\n")
            self._bad(lineno, "incomplete last line (the log was still being written)" if cut
                      else f"not JSON ({exc.msg}, column {exc.colno})")
            return
        except RecursionError:
            self._bad(lineno, "JSON nested too deeply")
            return
        if not isinstance(obj, dict):
            self._bad(lineno, f"a JSON {type(obj).__name__}, not an object")
            return
        self.good += 1
        self.stats.ok()
        yield lineno, obj

    def _bad(self, lineno: int, reason: str, counted: bool = False) -> None:
        self.bad_count += 1
        self.first_bad = self.first_bad or f"line {lineno}: {reason}"
        self.stats.bad(self.source.display(self.member), self.fmt, f"line {lineno}", reason, counted=counted)

    def demote(self, lineno: int, reason: str) -> None:
        """A line that parsed as JSON but could not be used: it counts as unreadable."""
        self.good -= 1
        self._bad(lineno, reason, counted=True)

    def finish(self) -> None:
        total = self.good + self.bad_count
        if total == 0:
            raise ImportFormatError(self.source.display(self.member), self.fmt, "empty file")
        if self.bad_count and self.bad_count > UNREADABLE_SHARE * total:
            raise TooManyUnreadable(
                self.source.display(self.member), self.fmt,
                f"{self.bad_count} of {total} lines unreadable, so this is probably not a {self.fmt} log "
                f"(first: {self.first_bad})",
            )


def head_lines(source: ExportSource, name: str) -> list[Any]:
    """The first lines of a member as JSON values (None where not JSON), bounded
    in bytes; read once per source for every JSON-lines detector."""
    key = ("jsonl_head", name)
    if key not in source.cache:
        source.cache[key] = _read_head_lines(source, name, SNIFF_LINES)
    return source.cache[key]


def _read_head_lines(source: ExportSource, name: str, limit: int) -> list[Any]:
    out: list[Any] = []
    try:
        with source.open(name) as fh:
            while len(out) < limit:
                raw = fh.readline(SNIFF_LINE_BYTES)
                if not raw:
                    break
                if len(raw) == SNIFF_LINE_BYTES and not raw.endswith(b"\n"):
                    out.append(_partial(raw))  # a huge line (a pasted file): judged by its start
                    while raw and not raw.endswith(b"\n"):
                        raw = fh.readline(SNIFF_LINE_BYTES)
                    continue
                if not raw.strip():
                    continue
                try:
                    out.append(json.loads(raw.decode("utf-8-sig")))
                except (ValueError, RecursionError):
                    out.append(None)
    except SNIFF_ERRORS:
        return out
    return out


_TOP_KEY = re.compile(rb'"(parentUuid|sessionId|uuid|message|payload|type)"\s*:\s*("[^"]*")?')


def _partial(start: bytes) -> dict | None:
    """The envelope of a line too long to sniff whole, from the keys at its start.

    Claude Code writes ``parentUuid``, ``sessionId`` and ``type`` before the
    message and ``uuid`` after it, so a huge message hides only the uuid.
    """
    found: dict[str, Any] = {}
    for key, value in _TOP_KEY.findall(start[:4096]):
        found.setdefault(key.decode(), json.loads(value) if value else None)
    if "parentUuid" in found and isinstance(found.get("sessionId"), str) and "message" in found:
        found.setdefault("uuid", "(past the sniffed bytes)")
        found["message"] = {"role": found.get("type")}
        return found
    return None


def candidates(source: ExportSource, limit: int | None = _sniff.MAX_MEMBERS) -> list[str]:
    """Members worth sniffing: any file alone; in a container, text-like names,
    shallowest first (``limit`` bounds detection; parsing passes None)."""
    return _sniff.candidates(source, _TEXT_SUFFIXES, limit=limit)


# -- detection ---------------------------------------------------------------------


def _is_entry(obj: Any) -> bool:
    if not isinstance(obj, dict) or "payload" in obj:
        return False
    kind = obj.get("type")
    if kind in ("user", "assistant"):
        msg = obj.get("message")
        return (
            "parentUuid" in obj and isinstance(obj.get("uuid"), str) and isinstance(obj.get("sessionId"), str)
            and isinstance(msg, dict) and "role" in msg
        )
    if kind == "summary":
        return "leafUuid" in obj
    if kind in _BOOKKEEPING:
        return isinstance(obj.get("sessionId", ""), str)
    # system, progress, attachment... lines share the envelope (hooks can write dozens first)
    return isinstance(kind, str) and "parentUuid" in obj and isinstance(obj.get("uuid"), str) and isinstance(
        obj.get("sessionId"), str
    )


def sniff(source: ExportSource, name: str) -> bool:
    lines = head_lines(source, name)
    if any(isinstance(o, dict) and "payload" in o for o in lines):
        return False
    return any(_is_entry(o) for o in lines)


def detect(source: ExportSource) -> bool:
    return any(sniff(source, n) for n in candidates(source))


# -- parse -------------------------------------------------------------------------


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = [n for n in candidates(source, limit=None) if sniff(source, n)]
    if not members:
        raise ImportFormatError(
            source.path, NAME, "no Claude Code session log found (JSONL lines with type, uuid, sessionId, message)"
        )
    # The earliest session first: a resumed session replays earlier messages
    # under their old uuids, and the original keeps them.
    members.sort(key=lambda n: (_first_time(source, n), n))
    seen: set[str] = set()
    yielded = 0
    for member in members:
        cursor.at(member, None)
        conv = _session(source, member, stats, seen, cursor)
        if conv is not None:
            yielded += 1
            yield conv
    if not yielded:
        raise ImportFormatError(source.display(members[0]), NAME, "the session log holds no messages")


def _first_time(source: ExportSource, name: str) -> str:
    for obj in head_lines(source, name):
        if isinstance(obj, dict) and isinstance(obj.get("timestamp"), str):
            return obj["timestamp"]
    return "~"


class _Turn:
    __slots__ = ("captions", "extra", "lineno", "model", "role", "texts", "timestamp", "tools", "uuid")

    def __init__(self, uuid: str, lineno: int, role: str, timestamp, model: str | None = None):
        self.uuid, self.lineno, self.role, self.timestamp, self.model = uuid, lineno, role, timestamp, model
        self.texts: list[str] = []
        self.tools: list[str] = []
        self.captions: list[str] = []
        self.extra: dict[str, Any] = {}


def _session(
    source: ExportSource, member: str, stats: ParseStats, seen: set[str], cursor: c.Cursor
) -> Conversation | None:
    lines = Lines(source, member, NAME, stats)
    parent_of: dict[str, str | None] = {}
    turns: list[_Turn] = []
    by_message_id: dict[str, _Turn] = {}
    typed_users: set[str] = set()
    last_entry: str | None = None
    session_id: str | None = None
    titles: dict[str, str] = {}
    cwd: str | None = None
    sidechain = 0
    for lineno, obj in lines:
        cursor.at(member, f"line {lineno}")
        try:
            kind = obj.get("type")
            uuid = obj.get("uuid")
            if isinstance(uuid, str) and uuid:
                parent = obj.get("parentUuid") or obj.get("logicalParentUuid")
                parent_of.setdefault(uuid, parent if isinstance(parent, str) else None)
            if session_id is None and isinstance(obj.get("sessionId"), str) and obj["sessionId"]:
                session_id = obj["sessionId"]
            if kind in ("user", "assistant"):
                if obj.get("isSidechain"):
                    stats.skip("sidechain")
                    sidechain += 1
                    continue
                uuid = c.id_of(uuid, "uuid")
                last_entry = uuid
                if uuid in seen:
                    stats.skip("resumed_replay")
                    continue
                seen.add(uuid)
                if cwd is None and isinstance(obj.get("cwd"), str):
                    cwd = obj["cwd"]
                if kind == "user":
                    turn = _user(uuid, lineno, obj, stats)
                    if turn is not None:
                        typed_users.add(uuid)
                        turns.append(turn)
                else:
                    _assistant(uuid, lineno, obj, stats, turns, by_message_id)
            else:
                _title(kind, obj, titles)
                if kind not in ("summary", "system") and kind not in _BOOKKEEPING:
                    stats.skip("bookkeeping")
        except c.STRUCTURAL_ERRORS as exc:
            lines.demote(lineno, c.describe(exc))
    lines.finish()
    conv_id = session_id or c.basename(member).rsplit(".", 1)[0]
    messages = _messages(turns, parent_of, typed_users, last_entry, stats)
    if cwd and messages:
        messages[0] = _with_extra(messages[0], cwd=cwd)
    if not messages:
        if not sidechain:  # a subagent's own file is counted as sidechain lines
            stats.skip("empty_conversation")
        return None
    summary = next((v for k, v in titles.items() if k.startswith("summary:") and k[8:] in parent_of), None)
    title = (titles.get("custom") or summary or titles.get("ai")
             or c.fallback_title([m for m in messages if m.role == "user"] or messages))
    return Conversation(external_id=conv_id, title=c.text_of(title, "title").strip(), kind="chat", messages=messages)


def _title(kind: Any, obj: dict, titles: dict[str, str]) -> None:
    if kind == "custom-title" and isinstance(obj.get("customTitle"), str) and obj["customTitle"].strip():
        titles["custom"] = obj["customTitle"]  # the last rename wins
    elif kind == "summary" and isinstance(obj.get("summary"), str) and obj["summary"].strip():
        # A new session file can open with summaries of other sessions: keyed by their leaf.
        titles.setdefault(f"summary:{obj.get('leafUuid')}", obj["summary"])
    elif kind == "ai-title":
        value = obj.get("aiTitle") or obj.get("title")
        if isinstance(value, str) and value.strip():
            titles["ai"] = value


def _user(uuid: str, lineno: int, obj: dict, stats: ParseStats) -> _Turn | None:
    if obj.get("isMeta"):
        stats.skip("meta")
        return None
    if obj.get("isCompactSummary"):
        stats.skip("compaction_summary")
        return None
    if "toolUseResult" in obj:
        stats.skip("tool_result")
        return None
    message = c.dict_of(obj.get("message"), "message")
    content = message.get("content")
    texts: list[str] = []
    captions: list[str] = []
    if isinstance(content, str):
        texts.append(content)
    else:
        for block in c.list_of(content, "message.content"):
            block = c.maybe_dict(block)
            kind = block.get("type")
            if kind == "text":
                texts.append(c.text_of(block.get("text"), "text"))
            elif kind == "image":
                media = c.maybe_dict(block.get("source")).get("media_type")
                captions.append(f"image: pasted {media}" if isinstance(media, str) else "image: pasted")
            elif kind == "tool_result":
                stats.skip("tool_result")
    if not texts and not captions:
        return None  # a tool result (counted above) or an empty line
    text = "\n\n".join(t for t in texts if t)
    if text.lstrip().startswith(_COMPACT_PREFIX):
        stats.skip("compaction_summary")
        return None
    text = _clean(text)
    if not text and not captions:
        stats.skip("injected")
        return None
    turn = _Turn(uuid, lineno, "user", c.from_iso(obj.get("timestamp"), "timestamp"))
    turn.texts.append(text)
    turn.captions.extend(captions)
    return turn


def _clean(text: str) -> str:
    """The person's words from a prompt line: slash commands as typed, injections out."""
    command = _COMMAND_RE.search(text)
    if command:
        args = _ARGS_RE.search(text)
        typed = command.group(1).strip()
        if args and args.group(1).strip():
            typed += " " + args.group(1).strip()
        rest = _DROP_RE.sub("", _ARGS_RE.sub("", _COMMAND_RE.sub("", text))).strip()
        return (typed + ("\n" + rest if rest else "")).strip()
    text = _BASH_RE.sub(lambda m: "! " + m.group(1).strip(), text)
    return _DROP_RE.sub("", text).strip()


def _assistant(uuid: str, lineno: int, obj: dict, stats: ParseStats, turns: list[_Turn],
               by_message_id: dict[str, _Turn]) -> None:
    message = c.dict_of(obj.get("message"), "message")
    model = message.get("model")
    if model == "<synthetic>":
        stats.skip("synthetic")
        return
    if obj.get("isApiErrorMessage"):
        stats.skip("api_error")
        return
    mid = message.get("id")
    turn = by_message_id.get(mid) if isinstance(mid, str) else None
    if turn is None:
        turn = _Turn(uuid, lineno, "assistant", c.from_iso(obj.get("timestamp"), "timestamp"),
                     model if isinstance(model, str) else None)
        if isinstance(mid, str):
            by_message_id[mid] = turn
        turns.append(turn)
    content = message.get("content")
    if isinstance(content, str):
        turn.texts.append(content)
        return
    for block in c.list_of(content, "message.content"):
        block = c.maybe_dict(block)
        kind = block.get("type")
        if kind == "text":
            turn.texts.append(c.text_of(block.get("text"), "text"))
        elif kind in ("thinking", "redacted_thinking"):
            stats.skip("thoughts")
        elif kind in ("tool_use", "server_tool_use"):
            stats.skip("tool")
            name = block.get("name")
            if isinstance(name, str) and name:
                turn.tools.append(name)


def _messages(turns: list[_Turn], parent_of: dict[str, str | None], typed_users: set[str],
              last_entry: str | None, stats: ParseStats) -> list[Message]:
    kept = {t.uuid for t in turns if any(x.strip() for x in t.texts) or t.captions}
    main = _main_branch(kept, parent_of, typed_users, last_entry)
    messages: list[Message] = []
    seen_content: set[tuple] = set()
    previous: str | None = None
    for turn in turns:
        if turn.uuid not in kept:
            if not turn.tools:  # tool calls were counted as they were read
                stats.skip("empty")
            continue
        text = "\n\n".join(t for t in turn.texts if t.strip())
        # A compaction replays messages under new uuids with the same time.
        key = (turn.role, turn.timestamp, text)
        if turn.timestamp is not None and key in seen_content:
            stats.skip("compaction_replay")
            continue
        seen_content.add(key)
        extra: dict[str, Any] = {}
        if turn.model:
            extra["model"] = turn.model
        if turn.tools:
            extra["tools"] = list(dict.fromkeys(turn.tools))
        parent = _kept_parent(turn.uuid, parent_of, kept, previous)
        messages.append(Message(
            external_id=turn.uuid,
            speaker="User" if turn.role == "user" else "Claude",
            text=c.text_of(text, "text"),
            timestamp=turn.timestamp,
            role=turn.role,
            captions=tuple(turn.captions),
            parent_external_id=parent,
            on_main_branch=turn.uuid not in main.off,
            extra=extra or None,
        ))
        previous = turn.uuid
    return messages


def _kept_parent(uuid: str, parent_of: dict[str, str | None], kept: set[str], previous: str | None) -> str | None:
    """Nearest kept ancestor; the message before it in the file when the chain is broken."""
    node, steps = parent_of.get(uuid), 0
    while node is not None and steps < 100_000:
        if node in kept:
            return node
        if node not in parent_of:
            return previous  # a phantom parent: never written to the log
        node, steps = parent_of.get(node), steps + 1
    return None if node is None and steps < 100_000 else previous


class _Main(set):
    off: set[str]


def _main_branch(kept: set[str], parent_of: dict[str, str | None], typed_users: set[str], leaf: str | None) -> _Main:
    """The path to the last message, and the kept messages a rewind left behind.

    A message off that path is off the main branch only when the branch it is
    on starts with a typed prompt (a real rewind); recorder forks (parallel
    tool calls, hook lines, late tool results) stay on the main branch.
    """
    live = _Main()
    node = leaf
    while node is not None and node not in live:
        live.add(node)
        node = parent_of.get(node)
    live.off = set()
    fork_of: dict[str, str | None] = {}
    for uuid in kept:
        if uuid in live:
            continue
        path: list[str] = []
        node, prev = uuid, None
        fork: str | None = None
        while node is not None and node not in live:
            if node in fork_of:
                fork = fork_of[node]
                break
            if node in path:
                break
            path.append(node)
            prev, node = node, parent_of.get(node)
        else:
            fork = prev if node is not None else None
        for p in path:
            fork_of[p] = fork
        if fork is not None and fork in typed_users:
            live.off.add(uuid)
    return live


def _with_extra(msg: Message, **more: Any) -> Message:
    from dataclasses import replace

    return replace(msg, extra={**(msg.extra or {}), **more})
