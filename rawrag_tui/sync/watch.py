"""`rawrag sync --watch`: sync again whenever a live source changes.

File-system events come from ``watchfiles`` (Rust's notify: inotify,
FSEvents, ReadDirectoryChangesW), not from polling code of our own, and are
debounced: a session writing a line every few milliseconds causes one sync
per quiet spell, not one per line. A sync with nothing new is a stat of each
file, so a change elsewhere in a watched folder costs little.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

#: Quiet time (ms) after the last event before a sync runs.
DEBOUNCE_MS = 2_000


def watch(folders: list[Path], on_change: Callable[[set[str]], None], *, debounce_ms: int = DEBOUNCE_MS,
          stop: threading.Event | None = None) -> None:
    """Call ``on_change(paths)`` after each debounced batch of changes under ``folders`` until ``stop`` is set
    (or Ctrl-C)."""
    from watchfiles import watch as events  # lazy: only `--watch` needs it

    existing = [str(f) for f in folders if f.is_dir()]
    if not existing:
        from ..errors import UserError

        raise UserError("nothing to watch: no Claude Code or Codex folder was found and no folder was added "
                        "(`rawrag sync add PATH`)")
    for changes in events(*existing, debounce=debounce_ms, stop_event=stop, raise_interrupt=False):
        on_change({path for _, path in changes})
