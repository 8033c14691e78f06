"""OpenAI Codex CLI sessions (``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``).

One rollout file is one session and becomes one conversation. Three
generations of the log are read:

- the envelope ``{timestamp, type, payload}`` (since September 2025), where
  the typed prompt and the answer are ``event_msg`` ``user_message`` and
  ``agent_message`` events;
- the same envelope with ``history_mode: "paginated"``, where those events
  are not written and ``item_completed`` events carry the turn items;
- the bare log before it: a ``{id, timestamp, instructions}`` first line
  and ``{"type": "message", "role": ...}`` lines without times (their
  messages take the session's start time).

For each side (prompts, answers) the display events are read when the file
has them for that side; otherwise the model-visible ``response_item``
messages are, without the context Codex injects (``<environment_context>``,
``AGENTS.md``, developer messages). Some rollouts keep the prompts only as
``user_message`` events and the answers only as ``response_item`` messages. The answer's
progress chatter (``phase: commentary``), reasoning and tool calls are
counted, not imported; tool names are kept on the next answer in
``extra["tools"]``. The compaction summary is the model's words and is
counted only. Turns undone by ``thread_rolled_back`` are kept, marked off
the main branch. A forked session replays its parent's history; when the
parent is in the same import, that replayed prefix is imported once.

Lines that are not JSON are skipped and reported with their line number;
a file whose lines are mostly unreadable is refused.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from .claude_code import Lines, candidates, head_lines
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "codex"
#: A file name that breaks a tie between equally sure detectors (content decides first).
NAME_HINT = re.compile(r"rollout-[^/]*\.jsonl$")

_ENVELOPE = {"session_meta", "response_item", "event_msg", "turn_context", "compacted"}
_UUID = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", re.I)
_INJECTED = (
    "<environment_context>", "<user_instructions>", "<permissions instructions>", "<collaboration_mode>",
    "# AGENTS.md", "<INSTRUCTIONS>", "<user_shell_command>", "<turn_aborted>",
)
_REQUEST_MARK = "## My request for Codex:"
_TOOL_ITEMS = {"function_call", "custom_tool_call", "local_shell_call", "web_search_call"}
_TOOL_OUTPUTS = {"function_call_output", "custom_tool_call_output"}


# -- detection ---------------------------------------------------------------------


def sniff(source: ExportSource, name: str) -> bool:
    lines = head_lines(source, name)
    objs = [o for o in lines if isinstance(o, dict)]
    if not objs:
        return False
    first = lines[0]
    if isinstance(first, dict) and first.get("type") == "session_meta" and isinstance(first.get("payload"), dict):
        return "id" in first["payload"]
    if any(o.get("type") in _ENVELOPE and isinstance(o.get("payload"), dict) for o in objs):
        return True  # the envelope, even when the first line is damaged
    if isinstance(first, dict) and "type" not in first and "id" in first and "timestamp" in first:
        return any(
            (o.get("type") == "message" and "role" in o) or o.get("record_type") == "state"
            or o.get("type") in _TOOL_ITEMS
            for o in objs[1:]
        )
    return False


def detect(source: ExportSource) -> bool:
    return any(sniff(source, n) for n in candidates(source))


# -- parse -------------------------------------------------------------------------


@dataclass
class _Entry:
    lineno: int
    role: str
    text: str
    timestamp: Any
    captions: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    model: str | None = None


@dataclass
class _Session:
    conv_id: str | None = None
    start: Any = None
    forked_from: str | None = None
    cwd: str | None = None
    paginated: bool = False
    events: list[_Entry] = field(default_factory=list)
    responses: list[_Entry] = field(default_factory=list)
    event_skips: Counter = field(default_factory=Counter)
    response_skips: Counter = field(default_factory=Counter)
    tools: list[tuple[int, str]] = field(default_factory=list)
    models: list[tuple[int, str]] = field(default_factory=list)
    rollbacks: list[tuple[int, int]] = field(default_factory=list)


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = [n for n in candidates(source, limit=None) if sniff(source, n)]
    if not members:
        raise ImportFormatError(source.path, NAME, "no Codex session log found (rollout JSONL)")
    # Rollout names start with their local start time, so parents come before forks.
    members.sort(key=lambda n: (c.basename(n), n))
    known: dict[str, set[tuple[str, str]]] = {}
    yielded = 0
    for member in members:
        cursor.at(member, None)
        conv = _rollout(source, member, stats, known, cursor)
        if conv is not None:
            yielded += 1
            yield conv
    if not yielded:
        raise ImportFormatError(source.display(members[0]), NAME, "the session log holds no messages")


def _rollout(
    source: ExportSource, member: str, stats: ParseStats, known: dict, cursor: c.Cursor
) -> Conversation | None:
    lines = Lines(source, member, NAME, stats)
    s = _Session()
    first = True
    for lineno, obj in lines:
        cursor.at(member, f"line {lineno}")
        try:
            _line(lineno, obj, s, stats, first)
        except c.STRUCTURAL_ERRORS as exc:
            lines.demote(lineno, c.describe(exc))
        first = False
    lines.finish()
    if s.conv_id is None:  # a damaged first line: the file name still has the id
        match = _UUID.search(c.basename(member))
        s.conv_id = match.group(1).lower() if match else c.stable_id(NAME, member)
    entries, skips = _pick(s)
    stats.skipped.update(skips)
    if s.tools:
        stats.skip("tool", len(s.tools))
    _attach(entries, s)
    off = _rolled_back(entries, s.rollbacks)
    parent_texts = known.get(s.forked_from or "")
    messages: list[Message] = []
    occurrences: Counter = Counter()
    previous: _Entry | None = None
    replaying = parent_texts is not None
    last_main: str | None = None  # a turn after a rollback follows the last kept turn
    for entry in entries:
        if previous is not None and (previous.role, previous.text) == (entry.role, entry.text):
            stats.skip("duplicate")  # the same words echoed by two records
            continue
        previous = entry
        if replaying:
            if parent_texts is not None and (entry.role, entry.text) in parent_texts:
                stats.skip("fork_replay")
                continue
            replaying = False
        when = entry.timestamp if entry.timestamp is not None else s.start
        basis = (entry.role, entry.text)
        occurrences[basis] += 1
        extra: dict[str, Any] = {}
        if entry.model:
            extra["model"] = entry.model
        if entry.tools:
            extra["tools"] = list(dict.fromkeys(entry.tools))
        if s.cwd and not messages:
            extra["cwd"] = s.cwd
        messages.append(Message(
            external_id=c.stable_id(s.conv_id, entry.role, entry.text, occurrences[basis]),
            speaker="User" if entry.role == "user" else "Codex",
            text=entry.text,
            timestamp=when,
            role=entry.role,
            captions=tuple(entry.captions),
            parent_external_id=(messages[-1].external_id if messages else None) if id(entry) in off else last_main,
            on_main_branch=id(entry) not in off,
            extra=extra or None,
        ))
        if id(entry) not in off:
            last_main = messages[-1].external_id
    known[s.conv_id] = {(m.role, m.text) for m in messages} | (parent_texts or set())
    if not messages:
        stats.skip("empty_conversation")
        return None
    title = c.fallback_title([m for m in messages if m.role == "user"] or messages)
    return Conversation(external_id=s.conv_id, title=title, kind="chat", messages=messages)


def _pick(s: _Session) -> tuple[list[_Entry], Counter]:
    """Which record family speaks for each side, and the skips that go with it.

    Per role, the display events win when they hold that role, else the
    model-visible ``response_item`` messages do: the same words are in both,
    so taking one family per role never doubles a turn. Some rollouts write
    the prompt only as ``event_msg`` ``user_message`` and the answer only as a
    ``response_item`` (or the other way round); reading one family for both
    sides would lose a whole side of the conversation.
    """
    event_roles = {e.role for e in s.events}
    entries = [e for e in s.events if e.role in event_roles] + [
        e for e in s.responses if e.role not in event_roles
    ]
    entries.sort(key=lambda e: e.lineno)
    if not s.events:
        return entries, s.response_skips
    if event_roles >= {"user", "assistant"}:
        return entries, s.event_skips
    return entries, s.event_skips | s.response_skips  # a mix: each skip counted once


def _line(lineno: int, obj: dict, s: _Session, stats: ParseStats, first: bool) -> None:
    kind = obj.get("type")
    payload = obj.get("payload")
    if kind in _ENVELOPE and isinstance(payload, dict):
        when = c.from_iso(obj.get("timestamp"), "timestamp")
        if kind == "session_meta":
            if s.conv_id is None:  # a fork's later session_meta lines are its parent's
                s.conv_id = c.id_of(payload.get("id"), "session_meta.id")
                s.start = c.from_iso(payload.get("timestamp"), "session_meta.timestamp") or when
                s.paginated = payload.get("history_mode") == "paginated"
                source = c.maybe_dict(payload.get("source"))
                spawn = c.maybe_dict(c.maybe_dict(c.maybe_dict(source.get("subagent")).get("thread_spawn")))
                fork = payload.get("forked_from_id") or spawn.get("parent_thread_id")
                s.forked_from = fork if isinstance(fork, str) else None
                s.cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        elif kind == "turn_context":
            if isinstance(payload.get("model"), str):
                s.models.append((lineno, payload["model"]))
        elif kind == "compacted":
            stats.skip("compaction_summary")
        elif kind == "event_msg":
            _event(lineno, payload, when, s)
        else:
            _response(lineno, payload, when, s)
        if s.start is None:
            s.start = when
        return
    if first and "type" not in obj and "id" in obj:  # the bare log's first line
        s.conv_id = c.id_of(obj.get("id"), "id")
        s.start = c.from_iso(obj.get("timestamp"), "timestamp")
        return
    if obj.get("record_type") == "state":
        return
    if kind in ("message", "reasoning") or kind in _TOOL_ITEMS or kind in _TOOL_OUTPUTS:
        _response(lineno, obj, None, s)
        return
    stats.skip("other_record")  # newer record types (world_state, ...) are not chat


def _event(lineno: int, p: dict, when: Any, s: _Session) -> None:
    kind = p.get("type")
    if kind == "user_message":
        text = c.text_of(p.get("message"), "user_message.message").strip()
        images = c.list_of(p.get("images"), "images") + c.list_of(p.get("local_images"), "local_images")
        if text or images:
            s.events.append(_Entry(lineno, "user", text, when, captions=["image"] * len(images)))
    elif kind == "agent_message":
        if p.get("phase") == "commentary":
            s.event_skips["commentary"] += 1
            return
        text = c.text_of(p.get("message"), "agent_message.message").strip()
        if text:
            s.events.append(_Entry(lineno, "assistant", text, when))
    elif kind in ("agent_reasoning", "agent_reasoning_raw_content"):
        s.event_skips["thoughts"] += 1
    elif kind == "thread_rolled_back":
        n = p.get("num_turns")
        if isinstance(n, int) and not isinstance(n, bool) and n > 0:
            s.rollbacks.append((lineno, n))
    elif kind == "item_completed":
        item = c.dict_of(p.get("item"), "item_completed.item")
        itype = item.get("type")
        if itype == "UserMessage":
            texts, captions = [], []
            for part in c.list_of(item.get("content"), "UserMessage.content"):
                part = c.maybe_dict(part)
                if part.get("type") == "text":
                    texts.append(c.text_of(part.get("text"), "text"))
                elif part.get("type") in ("image", "local_image"):
                    captions.append("image")
            text = "\n".join(t for t in texts if t).strip()
            if text or captions:
                s.events.append(_Entry(lineno, "user", text, when, captions=captions))
        elif itype == "AgentMessage":
            if item.get("phase") == "commentary":
                s.event_skips["commentary"] += 1
                return
            text = "\n".join(
                c.text_of(c.maybe_dict(part).get("text"), "text")
                for part in c.list_of(item.get("content"), "AgentMessage.content")
            ).strip()
            if text:
                s.events.append(_Entry(lineno, "assistant", text, when))
        elif itype == "Reasoning":
            s.event_skips["thoughts"] += 1


def _response(lineno: int, p: dict, when: Any, s: _Session) -> None:
    kind = p.get("type")
    if kind == "message":
        role = p.get("role")
        if role not in ("user", "assistant"):
            s.response_skips["developer"] += 1
            return
        texts, captions = [], []
        for part in c.list_of(p.get("content"), "message.content"):
            part = c.maybe_dict(part)
            if part.get("type") in ("input_text", "output_text", "text"):
                texts.append(c.text_of(part.get("text"), "text"))
            elif part.get("type") == "input_image":
                captions.append("image")
        text = "\n".join(t for t in texts if t).strip()
        if role == "user":
            if _REQUEST_MARK in text:
                text = text.split(_REQUEST_MARK, 1)[1].strip()
            elif text.startswith(_INJECTED):
                s.response_skips["injected"] += 1
                return
        if text or captions:
            s.responses.append(_Entry(lineno, role, text, when, captions=captions))
    elif kind == "reasoning":
        s.response_skips["thoughts"] += 1
    elif kind in _TOOL_ITEMS:
        name = p.get("name")
        s.tools.append((lineno, name if isinstance(name, str) and name else str(kind).replace("_call", "")))
    elif kind in _TOOL_OUTPUTS:
        pass  # the output of a call counted above


def _attach(entries: list[_Entry], s: _Session) -> None:
    """Tool names onto the next answer, the turn's model onto each answer."""
    tools = sorted(s.tools)
    models = sorted(s.models)
    ti = mi = 0
    model: str | None = None
    pending: list[str] = []
    for entry in entries:
        while ti < len(tools) and tools[ti][0] < entry.lineno:
            pending.append(tools[ti][1])
            ti += 1
        while mi < len(models) and models[mi][0] < entry.lineno:
            model = models[mi][1]
            mi += 1
        if entry.role == "assistant":
            entry.tools, pending = pending, []
            entry.model = model


def _rolled_back(entries: list[_Entry], rollbacks: list[tuple[int, int]]) -> set[int]:
    """Entries undone by ``thread_rolled_back``: the last N turns before each."""
    off: set[int] = set()
    for at, n in rollbacks:
        live_turns = [i for i, e in enumerate(entries) if e.lineno < at and e.role == "user" and id(e) not in off]
        if not live_turns:
            continue
        start = live_turns[-n] if n <= len(live_turns) else live_turns[0]
        for e in entries[start:]:
            if e.lineno < at:
                off.add(id(e))
    return off
