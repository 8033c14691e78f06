"""The MCP face: the same memory for any agent that speaks the Model Context Protocol.

Thin, like the other faces: every tool is one call into :class:`Memory`, and
this module only shapes what comes back. Three rules shape it:

- **Raw messages, with where they came from.** A client's model gets the
  original text with its export id, conversation, time and speaker, so it can
  quote and cite; nothing is summarised here.
- **Bounded.** A client's context is small and shared; every result is cut
  to a token budget (cl100k, counted on the JSON sent) and says how to get
  the rest: ``more`` is true and ``cursor`` is passed back with the same
  arguments. A single item larger than the budget has its longest texts cut
  and is marked ``truncated``.
- **Read-only unless asked.** ``import`` and ``delete`` exist only when the
  server was started with ``--allow-write``; ``delete`` must be given the
  title it is deleting, so a model cannot delete by a mistyped id.

Errors are tool errors of one line (the same ``UserError`` text the CLI
prints); nothing else escapes, so a client never sees a traceback. What a
client sends is bounded before any work: a query past :data:`MAX_QUERY`
characters, any other text past :data:`MAX_TEXT`, a number SQLite cannot
hold, or an argument the tool does not take is refused in one line, and a
result never repeats more than :data:`MAX_ECHO` characters of what was sent.
Calls run side by side, each on a connection of its own (:mod:`.mcp_pool`).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import inspect
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar, cast

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ValidationError

from . import toolkit
from .errors import UserError
from .mcp_pool import Connections, HeldMemory
from .memory import Memory
from .search.types import Filters

#: Default size of one result, in cl100k tokens (the JSON as sent).
DEFAULT_BUDGET = 4000
MIN_BUDGET = 500
#: A text kept whole-or-cut never drops below this many characters when an item is shrunk to fit.
MIN_TEXT = 200
#: The longest ``query`` (search) or ``question`` (ask), in characters: a question, not a document.
MAX_QUERY = 2_000
#: The longest import ``path``, in characters (Linux's PATH_MAX).
MAX_PATH = 4_096
#: The longest of any other text argument (a title, a name, a cursor, a date), in characters.
MAX_TEXT = 1_000
#: The most names one list argument (``speaker``) may hold.
MAX_ITEMS = 50
#: The most characters of what a client sent that a result or an error repeats.
MAX_ECHO = 200
#: What SQLite's integers hold: a larger id or count is refused before it reaches the store.
MAX_INT = 2**63 - 1
#: The most characters of one error line.
MAX_ERROR = 500

INSTRUCTIONS = """\
rawrag is the user's own chat history (ChatGPT, Claude, Slack, WhatsApp, Telegram, Discord exports), \
stored raw on their machine. Use `search` to find what was said, then `get_messages` around a hit for \
context. Every message carries its export id (`external_id`), conversation, timestamp and speaker: cite \
them. Results are bounded; when `more` is true, call again with the same arguments and the `cursor`."""

Mode = Literal["hybrid", "dense", "lexical"]
Kind = Literal["chat", "channel", "group", "agent"]
FILTERS_HELP = (
    "Narrow with after/before (2016, 2016-03, 2016-03-14, or 30d/6m ago; each includes the period it names), "
    "speaker (a name or a list; a first name is enough), source (id, format or file name, see list_sources), "
    "conversation (id or title, see list_conversations) or kind (chat, channel, group, agent); hits then show "
    "only the messages that pass.")
_F = TypeVar("_F", bound=Callable[..., Any])


def _encode_cursor(tool: str, args: dict[str, Any], offset: int) -> str:
    raw = json.dumps({"t": tool, "a": _args_key(args), "o": offset}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _args_key(args: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(args, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not in a cursor")


def _decode_cursor(cursor: str | None, tool: str, args: dict[str, Any]) -> int:
    """The offset a cursor stands for; refused when it came from another call."""
    if not cursor:
        return 0
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw, parse_constant=_no_constant)  # no Infinity or NaN
        offset = data["o"]
        if not isinstance(offset, int) or isinstance(offset, bool) or offset > MAX_INT:
            raise ValueError("not an offset")
        same = data["t"] == tool and data["a"] == _args_key(args)
    except (ValueError, KeyError, TypeError, OverflowError, RecursionError):
        raise UserError("cursor: not a cursor this server gave out; drop it to start from the first page") from None
    if not same or offset < 0:
        raise UserError("cursor: it belongs to a call with other arguments; repeat that call's arguments, or drop it")
    return offset


def _tokens(obj: Any) -> int:
    return toolkit.count_tokens(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))


def _shrink(item: dict[str, Any], budget: int) -> dict[str, Any]:
    """``item`` with its longest texts cut until it fits ``budget`` (or cannot shrink further)."""
    item = json.loads(json.dumps(item))  # a deep copy: the caller's item stays whole
    texts: list[dict[str, Any]] = [m for m in item.get("messages", []) if isinstance(m, dict)]
    if isinstance(item.get("text"), str):
        texts.append(item)
    while _tokens(item) > budget:
        longest = max(texts, key=lambda t: len(t["text"]), default=None)
        if longest is None or len(longest["text"]) <= MIN_TEXT:
            break
        longest["text"] = longest["text"][: max(MIN_TEXT, len(longest["text"]) // 2)] + " [...]"
        longest["truncated"] = True
        item["truncated"] = True
    return item


def page(items: list[dict[str, Any]], offset: int, budget: int, head: dict[str, Any], key: str, tool: str,
         args: dict[str, Any], *, total: int | None = None, loaded_from: int = 0) -> dict[str, Any]:
    """``head`` plus as many items from ``offset`` on as fit ``budget`` tokens, and the cursor to the rest.

    ``items[0]`` is item number ``loaded_from`` of ``total`` (a face may load
    only the slice one page can hold). The whole result, cursor included, is
    measured, not estimated. At least one item is always returned (shrunk to
    fit), so paging always advances.
    """
    total = len(items) + loaded_from if total is None else total
    rest = items[offset - loaded_from:]

    def build(taken: list[dict[str, Any]]) -> dict[str, Any]:
        after = offset + len(taken)
        more = after < total
        return {**head, key: taken, "more": more, "total": total,
                "cursor": _encode_cursor(tool, args, after) if more else None}

    taken: list[dict[str, Any]] = []
    for item in rest:
        if _tokens(build([*taken, item])) > budget:
            if not taken:
                taken.append(_shrink(item, budget - _tokens(build([])) - 20))
            break
        taken.append(item)
    return build(taken)


def _message(m: Any, conversation: str | None = None, conversation_id: int | None = None) -> dict[str, Any]:
    """One message as a client sees it, from an EvidenceMessage or a store row."""
    if isinstance(m, dict):
        out = {
            "message_id": m["id"], "external_id": m["external_id"], "conversation_id": conversation_id,
            "conversation": conversation, "seq": m["seq"], "timestamp": m["ts"], "speaker": m["speaker"],
            "role": m["role"], "text": m["text"],
        }
        captions = json.loads(m["captions"]) if m.get("captions") else []
        if not m.get("on_main_branch", 1):
            out["off_main_branch"] = True
    else:
        out = {
            "message_id": m.message_id, "external_id": m.external_id, "conversation_id": m.conversation_id,
            "conversation": m.conversation, "seq": m.seq, "timestamp": m.timestamp, "speaker": m.speaker,
            "role": m.role, "text": m.text,
        }
        captions = list(m.captions)
    if captions:
        out["captions"] = captions
    return out


def _echo(text: str, most: int = MAX_ECHO) -> str:
    """What a client sent, as a result repeats it: never more than ``most`` characters."""
    return text if len(text) <= most else text[:most] + f"... [{len(text):,} characters]"


def _result(payload: dict[str, Any]) -> CallToolResult:
    """Compact JSON text (what the budget counted) plus the same object as structured content."""
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=payload)


def _one_line(fn: _F) -> _F:
    """Every failure leaves the tool as one line: a user's error as the CLI words it, anything else named."""

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except UserError as exc:
            raise ToolError(_echo(str(exc).splitlines()[0], MAX_ERROR) if str(exc) else type(exc).__name__) from None
        except Exception as exc:  # noqa: BLE001 - a bug: still one line for the client, never a traceback
            first = str(exc).splitlines()[0] if str(exc) else ""
            raise ToolError(f"internal error: {type(exc).__name__}: {first}".rstrip(": ")) from None

    return cast(_F, wrapped)


WRITE_TOOLS = ("import", "delete")
#: The longest each text argument may be, by name (others: MAX_TEXT).
TEXT_LIMITS = {"query": MAX_QUERY, "question": MAX_QUERY, "path": MAX_PATH}


def check_arguments(name: str, arguments: dict[str, Any], known: tuple[str, ...]) -> str | None:
    """The one line that refuses ``arguments`` before any work, or None: an argument the tool does
    not take, a text longer than its limit, too many names, a number SQLite cannot hold."""
    for key, value in arguments.items():
        if key not in known:
            return f"{name}: unknown argument {_echo(str(key), 40)!r}; known: {', '.join(known)}"
        values = value if isinstance(value, list) else [value]
        if len(values) > MAX_ITEMS:
            return f"{name}: {key}: {len(values):,} values; give at most {MAX_ITEMS}"
        for one in values:
            most = TEXT_LIMITS.get(key, MAX_TEXT)
            if isinstance(one, str) and len(one) > most:
                return f"{name}: {key}: {len(one):,} characters; give at most {most:,}"
            if isinstance(one, int) and not isinstance(one, bool) and not -MAX_INT <= one <= MAX_INT:
                return f"{name}: {key}: {_echo(str(one), 30)} is out of range"
    return None


class _Server(MCPServer):
    """MCPServer whose tool errors are one line: the SDK's own (unknown tool,
    arguments that fail the schema) are reworded like ours, and a write tool
    called on a read-only server says how to allow it."""

    def __init__(self, *args: Any, allow_write: bool, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.allow_write = allow_write
        #: Each tool's argument names, in order: anything else is refused, not ignored.
        self.arguments: dict[str, tuple[str, ...]] = {}

    async def list_tools(self) -> Any:
        tools = await super().list_tools()
        for tool in tools:  # say in the schema what call_tool enforces
            tool.input_schema["additionalProperties"] = False
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        if name in self.arguments:  # checked here, on the event loop, before any thread or store work
            refused = check_arguments(name, arguments, self.arguments[name])
            if refused:
                raise ToolError(refused)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            raise ToolError(_echo(self._one_line(name, exc), MAX_ERROR)) from None

    def _one_line(self, name: str, exc: ToolError) -> str:
        cause = exc.__cause__
        if isinstance(cause, ValidationError):
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                                 for e in cause.errors())
            return f"{name}: bad arguments: {problems}"
        text = str(exc)
        if text == f"Unknown tool: {name}":
            if name in WRITE_TOOLS and not self.allow_write:
                return (f"{name}: this rawrag MCP server is read-only; the user can restart it with "
                        "`rawrag mcp --allow-write` to allow import and delete")
            return f"{name}: no such tool"
        prefix = f"Error executing tool {name}: "
        text = text[len(prefix):] if text.startswith(prefix) else text
        return f"{name}: {text.splitlines()[0] if text else 'failed'}"


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def build_server(memory: Memory | Connections, *, allow_write: bool = False, budget: int = DEFAULT_BUDGET,
                 auth: dict[str, Any] | None = None) -> MCPServer:
    """An MCP server over one open memory. Each call runs on a worker thread with a connection of
    its own (``memory``'s siblings, :mod:`.mcp_pool`), so a slow one keeps no other waiting; writes
    take turns. ``auth``: what :func:`.mcp_access.auth_for` gives, to require a bearer token."""
    budget = max(MIN_BUDGET, budget)
    connections = memory if isinstance(memory, Connections) else Connections(memory)
    writing = threading.Lock()
    server = _Server("rawrag", instructions=INSTRUCTIONS, log_level="WARNING", allow_write=allow_write,
                     **(auth or {}))
    # the tools below say `memory`: the Memory their own call holds
    memory = cast(Memory, HeldMemory(connections))

    def tool(name: str, description: str, annotations: ToolAnnotations = READ_ONLY) -> Callable[[_F], _F]:
        def register(fn: _F) -> _F:
            writes = name in WRITE_TOOLS

            @functools.wraps(fn)
            def held(*args: Any, **kwargs: Any) -> Any:
                with writing if writes else contextlib.nullcontext(), connections.use(first=name == "ask"):
                    return fn(*args, **kwargs)

            server.add_tool(_one_line(held), name=name, description=description, annotations=annotations)
            server.arguments[name] = tuple(inspect.signature(fn).parameters)
            return fn

        return register

    @tool("search", (
        "Search the user's chat history (their own ChatGPT/Claude/Slack/WhatsApp/Telegram/Discord messages) "
        "for what was said about something. Use it whenever the user refers to something they discussed, "
        "decided, planned or were told before. Returns ranked windows of conversation, each with the full "
        "original messages (message_id, external_id, conversation, timestamp, speaker, text). Pass the "
        "question in natural words; mode 'hybrid' (default) mixes meaning and exact words, 'lexical' is exact "
        "words only (names, codes), 'dense' meaning only. " + FILTERS_HELP + " Read more context around a "
        "hit with get_messages(message_id=...). When 'more' is true, call again with the same arguments and "
        "the returned cursor."))
    def search(query: str, mode: Mode | None = None, k: int = 10, after: str | None = None,
               before: str | None = None, speaker: list[str] | str | None = None, source: str | int | None = None,
               conversation: str | int | None = None, kind: Kind | None = None,
               cursor: str | None = None) -> CallToolResult:
        if not 1 <= k <= 50:
            raise UserError("k: give 1 to 50 windows")
        filters = _filters(after, before, speaker, source, conversation, kind)
        args = {"query": query, "mode": mode, "k": k, **filters.to_json()}
        offset = _decode_cursor(cursor, "search", args)
        result = memory.search(query, mode=mode, limit=k, filters=filters)
        hits = [{"rank": h.rank, "window_id": h.window_id, "conversation_id": h.conversation_id,
                 "conversation": h.conversation, "scores": {n: round(s, 4) for n, s in h.scores.items()},
                 "messages": [_message(m) for m in h.messages]} for h in result.hits]
        head: dict[str, Any] = {"query": _echo(result.query), "mode": result.mode}
        if result.nothing_passes:
            head["summary"] = result.nothing_passes
        if result.notes:
            head["notes"] = result.notes
        return _result(page(hits, offset, budget, head, "hits", "search", args))

    @tool("get_messages", (
        "Read the user's original messages in order: either a whole conversation from the start "
        "(conversation_id), or the messages around one message (message_id from a search hit, or external_id, "
        "the id in the original export, with conversation_id when that id is not unique). 'before'/'after' set "
        "how many neighbours to include around a message (default 10 each). Use it to read the context of a "
        "search hit before answering. Paged: when 'more' is true, call again with the same arguments and the "
        "cursor."))
    def get_messages(conversation_id: int | None = None, message_id: int | None = None,
                     external_id: str | None = None, before: int = 10, after: int = 10,
                     cursor: str | None = None) -> CallToolResult:
        args = {"conversation_id": conversation_id, "message_id": message_id, "external_id": external_id,
                "before": before, "after": after}
        if before < 0 or after < 0 or before > 500 or after > 500:
            raise UserError("before/after: give 0 to 500 messages")
        offset = _decode_cursor(cursor, "get_messages", args)
        head: dict[str, Any]
        if message_id is None and external_id is None:
            if conversation_id is None:
                raise UserError("give conversation_id, or message_id, or external_id")
            conv = memory.conversation(conversation_id)
            if conv is None:
                raise UserError(f"no conversation with id {conversation_id}")
            first, count = 0, int(conv["messages"])
            head = {"conversation_id": conversation_id, "conversation": conv["title"]}
        else:
            at = memory.locate_message(message_id=message_id, external_id=external_id,
                                       conversation_id=conversation_id)
            conv = memory.conversation(at["conversation_id"])
            assert conv is not None
            first = max(0, at["seq"] - before)
            count = min(int(conv["messages"]), at["seq"] + after + 1) - first
            head = {"conversation_id": at["conversation_id"], "conversation": conv["title"],
                    "around": {"message_id": at["id"], "external_id": at["external_id"]}}
        # load only what one page can hold: every message costs at least a few tokens
        rows = memory.messages(head["conversation_id"], first + offset, max(0, min(count - offset, budget // 8)))
        items = [_message(r, head["conversation"], head["conversation_id"]) for r in rows]
        for item in items:  # the conversation is named once in the head
            del item["conversation"], item["conversation_id"]
        return _result(page(items, offset, budget, head, "messages", "get_messages", args,
                            total=count, loaded_from=offset))

    @tool("list_sources", (
        "List the exports imported into the user's history (one per imported file: format such as chatgpt, "
        "slack or whatsapp, file path, when imported, message count). Use a source's id to narrow search or "
        "list_conversations. Paged with cursor when 'more' is true."))
    def list_sources(cursor: str | None = None) -> CallToolResult:
        offset = _decode_cursor(cursor, "list_sources", {})
        items = [{"source_id": s["id"], "format": s["format"], "file": Path(s["path"]).name, "path": s["path"],
                  "imported_at": s["imported_at"], "messages": s["messages"]} for s in memory.sources()]
        return _result(page(items, offset, budget, {}, "sources", "list_sources", {}))

    @tool("list_conversations", (
        "List conversations in the user's history, most recent first, with id, title, kind (chat, channel, "
        "dm, thread), message count and first/last message time. Filter by words in the title "
        "(title_contains, taken literally) and with the filters search takes: a conversation is listed when "
        "one of its messages passes them. " + FILTERS_HELP.removesuffix(
            "; hits then show only the messages that pass.") + ". Use an id with get_messages or to narrow "
        "search. Paged with cursor when 'more' is true. (since/until and source_id are older names for "
        "after/before and source.)"))
    def list_conversations(after: str | None = None, before: str | None = None,
                           speaker: list[str] | str | None = None, source: str | int | None = None,
                           conversation: str | int | None = None, kind: Kind | None = None,
                           title_contains: str | None = None, cursor: str | None = None,
                           source_id: int | None = None, since: str | None = None,
                           until: str | None = None) -> CallToolResult:
        for new, old, name in ((after, since, "after/since"), (before, until, "before/until"),
                               (source, source_id, "source/source_id")):
            if new is not None and old is not None:
                raise UserError(f"{name}: give one of the two names, not both")
        filters = _filters(after or since, before or until, speaker,
                           source if source is not None else source_id, conversation, kind)
        args = {"title_contains": title_contains, **filters.to_json()}
        offset = _decode_cursor(cursor, "list_conversations", args)
        items = []
        for c in memory.conversations(None, title_contains or None, filters=filters or None):
            items.append({"conversation_id": c["id"], "title": c["title"], "kind": c["kind"],
                          "format": c["format"], "messages": c["messages"], "first": c["first_ts"],
                          "last": c["last_ts"]})
        return _result(page(items, offset, budget, {}, "conversations", "list_conversations", args))

    @tool("ask", (
        "Have rawrag's reader (its own small local model, or the model server the user chose; 'reader' in "
        "the result says which and where) answer a question from the user's history, with numbered "
        "citations to the original messages. Slow on a CPU (seconds to a minute) and a weaker reader than "
        "most clients: prefer search + get_messages and answer yourself; use ask when the user wants "
        "rawrag's offline answer. 'date' (YYYY-MM-DD) is the day the question is asked, for 'last week' "
        "style questions; default today. " + FILTERS_HELP), ToolAnnotations(read_only_hint=True, open_world_hint=False))
    def ask(question: str, date: str | None = None, after: str | None = None, before: str | None = None,
            speaker: list[str] | str | None = None, source: str | int | None = None,
            conversation: str | int | None = None, kind: Kind | None = None) -> CallToolResult:
        from datetime import date as Date

        checked = _check_day(date, "date")
        day = Date.fromisoformat(checked) if checked else None
        toolkit.require_reader(memory.settings.home)
        answer = memory.ask(question, date=day, filters=_filters(after, before, speaker, source, conversation, kind))
        payload = answer.to_json()
        payload.pop("timings", None)
        payload["question"] = _echo(question)
        citations = payload.pop("citations", [])
        return _result(page(citations, 0, budget, payload, "citations", "ask", {"question": question}))

    @tool("status", (
        "What the user's rawrag memory holds and how it runs: counts of sources, conversations, messages and "
        "windows, windows not yet embedded, the model profile, the device models run on, where the data lives "
        "and its size, whether this server may write (import/delete), and the last `rawrag sync` (when, "
        "messages added, sources that failed): whether the memory is current."))
    def status() -> CallToolResult:
        s = memory.status()
        device = s["device"]
        return _result({
            "sources": s["sources"], "conversations": s["conversations"], "messages": s["messages"],
            "windows": s["windows"], "pending_embeddings": s["pending_embeddings"], "profile": s["profile"],
            "home": s["home"], "database": s["database"], "database_bytes": s["database_bytes"],
            "device": {"device": device.get("device"), "reason": device.get("reason"),
                       **({"error": device["error"]} if "error" in device else {})},
            "allow_write": allow_write,
            "last_sync": s["last_sync"],  # when `rawrag sync` last ran, what it added and what failed
        })

    if allow_write:
        @tool("import", (
            "Import a chat export file or folder from this machine into the user's history (ChatGPT, Claude, "
            "Slack, WhatsApp, Telegram, Discord, LoCoMo, or JSON lines; the format is detected). Only call it "
            "when the user asks to import a specific path. All of the file lands or none of it; importing the "
            "same export again adds nothing. Returns what was added and skipped."),
            ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False))
        def import_(path: str, format: str = "auto") -> CallToolResult:
            if format != "auto" and format not in toolkit.FORMATS:
                raise UserError(f"format: {format!r} is not one of auto, {', '.join(toolkit.FORMATS)}")
            target = Path(path).expanduser()
            if not target.exists():
                raise UserError(f"{target}: no such file or folder")
            report = memory.import_path(target, format)
            return _result(report.to_json())

        @tool("delete", (
            "Delete a conversation or a whole imported source from the user's history, permanently (no copy of "
            "the text is left in the database). Only when the user explicitly asks. Give kind ('conversation' "
            "or 'source'), its id, and its title exactly as list_conversations shows it (for a source: its "
            "file name from list_sources); a mismatch deletes nothing. Returns what was removed."),
            ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                            open_world_hint=False))
        def delete(kind: Literal["conversation", "source"], id: int, title: str) -> CallToolResult:
            if kind == "conversation":
                conv = memory.conversation(id)
                if conv is None:
                    raise UserError(f"no conversation with id {id}")
                if conv["title"] != title:
                    raise UserError(f"conversation {id} is titled {conv['title']!r}, not {title!r}: nothing deleted")
                removed = memory.delete_conversation(id)
                return _result({"deleted": {"kind": kind, "id": id, "title": conv["title"]}, "removed": removed})
            source = next((s for s in memory.sources() if s["id"] == id), None)
            if source is None:
                raise UserError(f"no source with id {id}")
            name = Path(source["path"]).name
            if name != title:
                raise UserError(f"source {id} is the file {name!r}, not {title!r}: nothing deleted")
            removed = memory.delete_source(id)
            return _result({"deleted": {"kind": kind, "id": id, "title": name}, "removed": removed})

    return server


def _filters(after: str | None, before: str | None, speaker: list[str] | str | None, source: str | int | None,
             conversation: str | int | None, kind: str | None) -> Filters:
    speakers = (speaker,) if isinstance(speaker, str) else tuple(speaker or ())
    return Filters(after=after, before=before, speakers=speakers, source=None if source is None else str(source),
                   conversation=None if conversation is None else str(conversation), kind=kind)


def _check_day(value: str | None, name: str) -> str | None:
    from datetime import date

    if not value:
        return None
    try:
        return date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        raise UserError(f"{name}: {value!r} is not a date (YYYY-MM-DD)") from None


def serve(memory: Memory, *, http: bool = False, port: int = 8765, socket_path: Path | None = None,
          allow_write: bool = False, budget: int = DEFAULT_BUDGET, announce: Callable[[str], None] = print) -> None:
    """Run until the client goes away (stdio) or the process is stopped: HTTP on 127.0.0.1 with this
    home's bearer token, or HTTP on a Unix socket only the owner can open (:mod:`.mcp_access`)."""
    from . import mcp_access

    connections = Connections(memory)
    try:
        if socket_path is not None:
            from mcp.server.transport_security import TransportSecuritySettings

            sock = mcp_access.private_socket(socket_path)
            server = build_server(connections, allow_write=allow_write, budget=budget)
            security = TransportSecuritySettings(allowed_hosts=mcp_access.SOCKET_HOSTS,
                                                 allowed_origins=mcp_access.LOOPBACK_ORIGINS)
            announce(f"rawrag MCP server on the Unix socket {socket_path} (0600: only you can connect), "
                     "at http://localhost/mcp; stop with Ctrl-C.")
            mcp_access.serve_on(server.streamable_http_app(transport_security=security), sock)
        elif http:
            token, _ = mcp_access.home_token(memory.settings.home)
            sock = mcp_access.loopback_socket(port)
            server = build_server(connections, allow_write=allow_write, budget=budget,
                                  auth=mcp_access.auth_for(token, port))
            announce(mcp_access.client_config(f"http://127.0.0.1:{port}/mcp", token,
                                              memory.settings.home / mcp_access.TOKEN_FILE))
            mcp_access.serve_on(server.streamable_http_app(host="127.0.0.1"), sock)
        else:
            build_server(connections, allow_write=allow_write, budget=budget).run("stdio")
    finally:
        connections.close()
