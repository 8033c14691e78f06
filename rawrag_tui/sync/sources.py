"""Where live chat history appears on this machine, and which files in it to read.

Found without asking: Claude Code's session logs (``~/.claude/projects``,
``$CLAUDE_CONFIG_DIR/projects`` (a comma-separated list, as ccusage reads it),
``~/.config/claude/projects``) and Codex's rollouts (``~/.codex/sessions`` and
``archived_sessions``, or the same under ``$CODEX_HOME``). Added by the person:
any folder, with a glob (``rawrag sync add ~/Downloads --pattern '*.zip'``).
A found source the person removes is remembered as set aside, not forgotten,
so the next sync does not find it again.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

#: Formats whose files are live logs, appended while a session runs: read incrementally.
SESSION_FORMATS = ("claude_code", "codex")
#: The glob an added folder gets when none is given: the zips chat services export.
DEFAULT_PATTERN = "*.zip"


@dataclass(frozen=True)
class LiveSource:
    """A folder sync reads: ``kind`` claude_code or codex (found) or folder (added, any export format)."""

    path: Path
    kind: str
    pattern: str
    origin: str  # found | added

    def files(self) -> Iterator[Path]:
        """The files to read, in a stable order; raises OSError when the folder cannot be read."""
        if not self.path.is_dir():
            raise FileNotFoundError(errno.ENOENT, "no such folder", str(self.path))
        os.listdir(self.path)  # an unreadable folder fails here, not silently as an empty glob
        for found in sorted(self.path.glob(self.pattern)):
            if not found.is_file() or found.is_symlink():
                continue
            if self.kind == "claude_code" and _claude_side_file(found.relative_to(self.path)):
                continue
            yield found

    def to_json(self) -> dict[str, str]:
        return {"path": str(self.path), "kind": self.kind, "pattern": self.pattern, "origin": self.origin}


def _claude_side_file(relative: Path) -> bool:
    """Subagent transcripts (``<session>/subagents/agent-*.jsonl``, older ``agent-*.jsonl``) are not sessions."""
    return "subagents" in relative.parts[:-1] or relative.name.startswith("agent-")


def found_sources(environ: Mapping[str, str] | None = None, user_home: Path | None = None) -> list[LiveSource]:
    """The Claude Code and Codex folders that exist on this machine, each once."""
    env = os.environ if environ is None else environ
    home = user_home or Path(env.get("HOME") or Path.home())
    claude_roots = [Path(p.strip()).expanduser() / "projects"
                    for p in env.get("CLAUDE_CONFIG_DIR", "").split(",") if p.strip()]
    claude_roots += [home / ".claude" / "projects", home / ".config" / "claude" / "projects"]
    codex_home = Path(env["CODEX_HOME"]).expanduser() if env.get("CODEX_HOME") else home / ".codex"
    candidates = [LiveSource(p, "claude_code", "**/*.jsonl", "found") for p in claude_roots]
    candidates += [LiveSource(codex_home / sub, "codex", "**/rollout-*.jsonl", "found")
                   for sub in ("sessions", "archived_sessions")]
    seen: set[Path] = set()
    out: list[LiveSource] = []
    for source in candidates:
        try:
            real = source.path.resolve()
        except OSError:
            continue
        if real in seen or not source.path.is_dir():
            continue
        seen.add(real)
        out.append(source)
    return out


def live_sources(listed: list[dict[str, str]], environ: Mapping[str, str] | None = None,
                 user_home: Path | None = None) -> list[LiveSource]:
    """Found sources not set aside, then the added folders (``listed``: the store's sync_sources rows)."""
    aside = {Path(row["path"]) for row in listed if row["kind"] == "ignored"}
    out = [s for s in found_sources(environ, user_home) if s.path not in aside]
    out += [LiveSource(Path(row["path"]), "folder", row["pattern"], "added") for row in listed
            if row["kind"] == "added"]
    return out
