"""Real-shaped Claude Code and Codex session trees on a fake HOME, written from the formats' documentation.

Claude Code: ``~/.claude/projects/<munged cwd>/<session uuid>.jsonl``, one JSON
line per entry (``type``, ``uuid``, ``parentUuid``, ``sessionId``, ``timestamp``,
``cwd``, ``message`` with ``role`` and ``content``), bookkeeping lines among
them, a streamed reply's blocks on lines sharing ``message.id``, tool results
as ``user`` lines with ``toolUseResult``, and a subagent file that is not a
session. Codex: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl``
with the ``{timestamp, type, payload}`` envelope (``session_meta`` first, then
``turn_context``, ``event_msg`` ``user_message``/``agent_message`` and their
``response_item`` echoes), and ``archived_sessions/``.
"""

from __future__ import annotations

import json
import uuid as uuidlib
from pathlib import Path


def _uuid(*parts: object) -> str:
    return str(uuidlib.uuid5(uuidlib.NAMESPACE_URL, "/".join(map(str, parts))))


def _ts(n: int) -> str:
    return f"2025-11-{1 + n // 1440 % 28:02d}T{n // 60 % 24:02d}:{n % 60:02d}:04.359Z"


class ClaudeSession:
    """One Claude Code session file; ``turn`` appends a prompt and its streamed reply."""

    def __init__(self, root: Path, project: str, name: str, cwd: str = "/Users/ann/src/app"):
        self.id = _uuid("claude", project, name)
        self.cwd = cwd
        self.path = root / project / f"{self.id}.jsonl"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.last: str | None = None
        self.n = 0
        self.lines: list[dict] = [{"type": "file-history-snapshot", "messageId": _uuid(self.id, "snap"),
                                   "snapshot": {"trackedFileBackups": {}}, "isSnapshotUpdate": False}]

    def _entry(self, kind: str, message: dict, **extra) -> dict:
        self.n += 1
        uid = _uuid(self.id, self.n)
        line = {"parentUuid": self.last, "isSidechain": False, "userType": "external", "cwd": self.cwd,
                "sessionId": self.id, "version": "2.0.31", "gitBranch": "main", "type": kind, "message": message,
                "uuid": uid, "timestamp": _ts(self.n), **extra}
        self.last = uid
        return line

    def prompt(self, text: str) -> list[dict]:
        return [self._entry("user", {"role": "user", "content": text}, promptSource="typed")]

    def reply(self, text: str, tool: str | None = None) -> list[dict]:
        mid = f"msg_{_uuid(self.id, 'm', self.n)[:12]}"
        base = {"model": "claude-sonnet-4-5-20250929", "id": mid, "type": "message", "role": "assistant",
                "stop_reason": None, "usage": {"input_tokens": 3, "output_tokens": 9}}
        out = [self._entry("assistant", {**base, "content": [{"type": "text", "text": text}]},
                           requestId=f"req_{mid[4:]}")]
        if tool:
            tool_id = f"toolu_{mid[4:]}"
            out.append(self._entry("assistant", {**base, "content": [
                {"type": "tool_use", "id": tool_id, "name": tool, "input": {"command": "ls"}}]}))
            out.append(self._entry("user", {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": tool_id, "content": "README.md\nsrc"}]},
                toolUseResult={"stdout": "README.md\nsrc", "stderr": ""}))
        return out

    def turn(self, prompt: str, answer: str, tool: str | None = None) -> list[dict]:
        return self.prompt(prompt) + self.reply(answer, tool)

    def write(self, lines: list[dict] | None = None) -> Path:
        """The whole file (the lines so far), or ``lines`` appended to it."""
        if lines is None:
            self.path.write_text("".join(json.dumps(x) + "\n" for x in self.lines), encoding="utf-8")
        else:
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write("".join(json.dumps(x) + "\n" for x in lines))
        return self.path


class CodexSession:
    """One Codex rollout; ``turn`` appends a prompt and its answer, each as event and response item."""

    def __init__(self, folder: Path, name: str, day: str = "2025/10/29"):
        self.id = _uuid("codex", name)
        stamp = "2025-10-28T17-59-38"
        self.path = (folder / day if day else folder) / f"rollout-{stamp}-{self.id}.jsonl"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.n = 0
        # The project Codex ran in: a folder beside the sessions' own, as a real rollout names its cwd.
        self.cwd = str(folder.parent / "shop")
        self.lines = [self._line("session_meta", {
            "id": self.id, "timestamp": _ts(0), "cwd": self.cwd, "originator": "codex_cli_rs",
            "cli_version": "0.50.0", "source": "cli", "model_provider": "openai",
            "git": {"commit_hash": "abc123", "branch": "main"}, "base_instructions": {"text": "You are Codex."}}),
            self._line("response_item", {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": f"<environment_context>\n  <cwd>{self.cwd}</cwd>\n"
                                               "</environment_context>"}]})]

    def _line(self, kind: str, payload: dict) -> dict:
        self.n += 1
        return {"timestamp": _ts(self.n), "type": kind, "payload": payload}

    def turn(self, prompt: str, answer: str) -> list[dict]:
        return [
            self._line("turn_context", {"turn_id": f"t{self.n}", "cwd": self.cwd, "model": "gpt-5-codex",
                                        "approval_policy": "on-request", "summary": "auto"}),
            self._line("event_msg", {"type": "user_message", "message": prompt, "images": []}),
            self._line("response_item", {"type": "message", "role": "user",
                                         "content": [{"type": "input_text", "text": prompt}]}),
            self._line("response_item", {"type": "reasoning", "summary": [], "encrypted_content": "gAAAA"}),
            self._line("event_msg", {"type": "agent_message", "message": answer, "phase": "final_answer"}),
            self._line("response_item", {"type": "message", "role": "assistant",
                                         "content": [{"type": "output_text", "text": answer}]}),
            self._line("event_msg", {"type": "token_count", "info": None}),
        ]

    def write(self, lines: list[dict] | None = None) -> Path:
        if lines is None:
            self.path.write_text("".join(json.dumps(x) + "\n" for x in self.lines), encoding="utf-8")
        else:
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write("".join(json.dumps(x) + "\n" for x in lines))
        return self.path


def fake_home(base: Path, claude_sessions: int = 3, codex_sessions: int = 2, turns: int = 2) -> dict:
    """A HOME with Claude Code sessions in two projects (plus a subagent file) and Codex rollouts
    (one archived). Returns the sessions and the number of messages they hold."""
    home = base / "user"
    projects = home / ".claude" / "projects"
    claude = []
    for i in range(claude_sessions):
        s = ClaudeSession(projects, ("-Users-ann-src-app", "-Users-ann-notes")[i % 2], f"s{i}")
        for t in range(turns):
            s.lines += s.turn(f"session {i} question {t}: why does the cart total drift by a cent?",
                              f"session {i} answer {t}: sum prices as integer cents.", tool="Bash" if t else None)
        s.lines.append({"type": "summary", "summary": f"Cart rounding {i}", "leafUuid": s.last})
        s.write()
        claude.append(s)
    side = projects / "-Users-ann-src-app" / claude[0].id / "subagents" / "agent-a1b2c3.jsonl"
    side.parent.mkdir(parents=True)
    side.write_text(json.dumps({"parentUuid": None, "isSidechain": True, "agentId": "a1b2c3", "type": "user",
                                "sessionId": claude[0].id, "uuid": _uuid("side"), "timestamp": _ts(1),
                                "message": {"role": "user", "content": "look around"}}) + "\n")
    codex = []
    for i in range(codex_sessions):
        folder = home / ".codex" / ("archived_sessions" if i == codex_sessions - 1 and i else "sessions")
        s = CodexSession(folder, f"r{i}", day="" if "archived" in folder.name else "2025/10/29")
        for t in range(turns):
            s.lines += s.turn(f"rollout {i} prompt {t}: make prices integers",
                              f"rollout {i} reply {t}: done, prices are cents now")
        s.write()
        codex.append(s)
    return {"home": home, "claude": claude, "codex": codex, "messages": (claude_sessions + codex_sessions) * turns * 2}
