"""The sync calls of one open home, as ``Memory.syncing()`` hands them to the faces.

Listing, adding and removing live sources, running a sync (then embedding
what it added, as an import does), the last sync's summary, and the
schedule (``--install``). The work is in :mod:`.runner`, :mod:`.sources`,
:mod:`.state`, :mod:`.schedule` and :mod:`.watch`.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..progress import Progress
from ..settings import Settings
from ..storage.store import Store
from ..storage.writer import writer
from . import runner, schedule
from . import state as st
from .runner import SyncReport
from .sources import DEFAULT_PATTERN, found_sources, live_sources


class Syncing:
    def __init__(self, store: Store, settings: Settings, index: Callable[..., dict[str, int]]):
        self.store, self.settings, self._index = store, settings, index

    def sources(self) -> list[dict[str, Any]]:
        """Every live source (found and added), with how many files sync has read in it."""
        states = st.file_states(self.store)
        out = []
        for source in live_sources(st.listed_sources(self.store)):
            row: dict[str, Any] = dict(source.to_json())
            prefix = str(source.path).rstrip("/") + "/"
            mine = [s for path, s in states.items() if path.startswith(prefix)]
            row.update(exists=source.path.is_dir(), files_read=len(mine),
                       messages_added=sum(s.messages_added for s in mine))
            out.append(row)
        return out

    def add(self, path: str | Path, pattern: str | None = None) -> dict[str, str]:
        folder = Path(path).expanduser().resolve()
        if not folder.is_dir():
            raise UserError(f"{path}: no such folder (sync follows folders; import a single file with `rawrag import`)")
        found = {s.path.resolve(): s for s in found_sources()}
        if folder in found and pattern is None:
            st.drop_source(self.store, str(found[folder].path))  # set aside before: found again
            return {"path": str(folder), "kind": found[folder].kind, "pattern": found[folder].pattern}
        row = {"path": str(folder), "pattern": pattern or DEFAULT_PATTERN, "kind": "added"}
        st.put_source(self.store, row["path"], row["pattern"], "added")
        return row

    def remove(self, path: str | Path) -> dict[str, str]:
        """Stop following a folder: an added one is forgotten, a found one is set aside. Its messages stay."""
        folder = Path(path).expanduser()
        listed = {row["path"]: row for row in st.listed_sources(self.store)}
        for candidate in (str(folder), str(folder.resolve())):
            if listed.get(candidate, {}).get("kind") == "added":
                st.drop_source(self.store, candidate)
                return {"path": candidate, "removed": "added folder"}
        for found in found_sources():
            if found.path in (folder, folder.resolve()) or found.path.resolve() == folder.resolve():
                st.put_source(self.store, str(found.path), found.pattern, "ignored")
                return {"path": str(found.path), "removed": f"{found.kind} folder (set aside; `sync add` restores it)"}
        raise UserError(f"{path}: not a sync source; `rawrag sync list` shows them")

    @writer
    def run(self, *, embed: bool = True, progress: Progress | None = None,
            lock: threading.RLock | None = None) -> SyncReport:
        """Read what is new in every live source, then embed the new windows (resumable, as after an import)."""
        with lock if lock is not None else contextlib.nullcontext():
            sources = live_sources(st.listed_sources(self.store))
        report = runner.sync(self.store, self.settings.window, sources, progress=progress, lock=lock)
        if embed and report.added:
            report.embedded = self._index(progress, lock)["embedded"]
        return report

    def folders(self) -> list[Path]:
        """The folders ``--watch`` follows."""
        return [s.path for s in live_sources(st.listed_sources(self.store))]

    def last(self) -> dict[str, Any] | None:
        return st.last_sync(self.store)

    def install(self, every: int = schedule.DEFAULT_EVERY) -> dict[str, Any]:
        return schedule.install(self.settings.home, every)

    def uninstall(self) -> dict[str, Any]:
        return schedule.uninstall()

    def watch(self, on_change: Callable[[set[str]], None], stop: threading.Event | None = None) -> None:
        from .watch import watch

        watch(self.folders(), on_change, stop=stop)
