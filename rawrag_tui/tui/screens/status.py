"""Status and models: profile, where the data lives, index freshness, execution device."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from ... import toolkit
from ...errors import UserError
from .. import keys
from ..fmt import plural
from ..service import ProgressMeter, human_duration
from .base import RawragScreen

if TYPE_CHECKING:
    from ...memory import DeviceReport, Status


def device_text(report: DeviceReport) -> str:
    """Which device the models run on and why, from the facade's status."""
    if report.get("error"):
        return f"unknown ({report['error']})"
    return f"{report.get('device') or 'none'} ({report.get('reason')})"


def size_text(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n} B"


def last_sync_text(last: dict | None) -> str:
    """When `rawrag sync` last ran, what it added and each source that failed (u: sync now)."""
    if not last:
        return "never (u: sync Claude Code, Codex and added folders now)"
    text = f"{last['at']} · {last['added']:,} messages added from {last['files_read']:,} changed files"
    failed = last.get("failed") or []
    return text + "".join(f"\nFAILED: {line}" for line in failed) + (
        f"\n… and {last['failed_count'] - len(failed)} more" if last.get("failed_count", 0) > len(failed) else "")


def encryption_text(enc: dict) -> str:
    """Whether the store is encrypted, and where its passphrase comes from, as `rawrag status` says."""
    if not enc.get("encrypted"):
        return "no (`rawrag encrypt` encrypts it in place)"
    kept = f"in the keyring ({enc['keyring']})" if enc.get("keyring") else "asked at start (or RAWRAG_PASSPHRASE)"
    return f"yes, {enc.get('cipher')}; the passphrase is {kept}"


class StatusScreen(RawragScreen):
    PLACE = "status"
    BINDINGS = keys.scope_bindings("status")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.indexing = False
        self.rows: dict[str, str] = {}  # what is shown, by row name

    def body(self) -> ComposeResult:
        with VerticalScroll(id="status-box"):
            yield Static("loading…", id="status-table")
        yield Label("", id="index-progress")

    def refresh_data(self) -> None:
        self.load()

    def on_screen_resume(self) -> None:
        """Shown again: read afresh even when no data changed (the reader may have loaded meanwhile);
        after a data change the base class reloads."""
        if self.seen_version == self.host.data_version:
            self.load()

    @work(thread=True, exclusive=True, group="status")
    def load(self) -> None:
        status = self.gate.status()
        settings = self.host.settings  # the open home's, as the memory reads with them
        missing = toolkit.reader_missing(settings.home)
        reader = ({"backend": "openai-compatible", "model": settings.reader.model, "endpoint": settings.reader.endpoint}
                  if settings.reader.endpoint else {"backend": "bundled"})
        self.app.call_from_thread(self.show, status, missing, reader)
        # Loopback only, short timeouts; shown when it answers, after the rest.
        servers = toolkit.reader_servers()
        self.app.call_from_thread(self.show_servers, servers)

    def show_servers(self, servers: list[dict]) -> None:
        """The reader servers running on this machine, and the command that switches to one."""
        if not servers:
            return
        lines = []
        for found in servers:
            models = ", ".join(found["models"][:4]) or "no chat model loaded"
            lines.append(f"{found['server']} at {found['endpoint']}: {models}")
            if found["commands"]:
                lines.append(f"  switch: {found['commands'][0]}")
        self.rows["Reader servers"] = "\n".join(lines)
        self.query_one("#status-table", Static).update(self.table())

    def table(self) -> Table:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for name, value in self.rows.items():
            table.add_row(name, value)
        return table

    def show(self, st: Status, reader_missing: str | None = None, reader: dict | None = None) -> None:
        pending = st["pending_embeddings"]
        freshness = ("up to date" if pending == 0 else f"embedding {plural(pending, 'window')} in the background"
                     if self.gate.embedding else f"{plural(pending, 'window')} wait for embeddings (x: index now)")
        rows = [
            ("Profile", st["profile"]),
            ("Data location", self.host.display_home or st["home"]),
            # with its write-ahead log: until a checkpoint, new data lives in the -wal file
            ("Database", f"{Path(st['database']).name}, {size_text(st['database_bytes'])}"),
            ("Encrypted", encryption_text(st["encryption"])),
            ("Library", f"{plural(st['sources'], 'source')} · {plural(st['conversations'], 'conversation')} · "
                        f"{plural(st['messages'], 'message')}"),
            ("Index", f"{plural(st['windows'], 'window')} · {freshness}"),
            ("Embedding model", st["embedding_fingerprint"] or "none yet"),
            ("Device", device_text(st["device"])),
            ("Search", f"{st['retrieval']['mode']} · recall {st['retrieval']['candidates']} · "
                       f"keep {st['retrieval']['top_k']}"),
            ("Windows", f"{st['window']['tokens']} tokens, stride {st['window']['stride']}, "
                        f"{st['window']['encoding']}"),
            ("Reader", reader_missing if reader_missing and reader and reader["backend"] != "bundled"
             else "not installed" if reader_missing else "loaded (answers start at once)" if self.gate.reader_loaded
             else "available (loads on the first question)"),
        ]
        if reader and reader["backend"] != "bundled":
            rows.append(("Read by", f"{reader['model']} at {reader['endpoint']}"))
        rows.append(("Last sync", last_sync_text(st.get("last_sync"))))
        self.rows = {name: str(value) for name, value in rows}
        self.query_one("#status-table", Static).update(self.table())

    def action_refresh_status(self) -> None:
        self.load()

    def action_sync_now(self) -> None:
        if self.indexing:
            return
        self.indexing = True  # one long job at a time on this screen (index now or sync now)
        self.query_one("#index-progress", Label).update("syncing…")
        self.run_sync()

    @work(thread=True, exclusive=True, group="index")
    def run_sync(self) -> None:
        meter = ProgressMeter(lambda *a: self.app.call_from_thread(self.show_progress, *a))
        try:
            # the lock only around each file's transaction: searching stays possible meanwhile
            report = self.gate.sync(meter)
        except UserError as exc:
            self.app.call_from_thread(self.index_failed, str(exc))
            return
        self.app.call_from_thread(self.synced, report.added, len(report.failed))

    def synced(self, added: int, failed: int) -> None:
        self.indexing = False
        self.query_one("#index-progress", Label).update(
            f"synced: {added:,} messages added" + (f", {failed} failed (see Last sync)" if failed else ""))
        self.host.data_changed()  # reloads this screen, the Last sync row with it

    def action_index_now(self) -> None:
        if self.indexing:
            return
        self.indexing = True
        self.query_one("#index-progress", Label).update("indexing…")
        self.run_index()

    @work(thread=True, exclusive=True, group="index")
    def run_index(self) -> None:
        meter = ProgressMeter(lambda *a: self.app.call_from_thread(self.show_progress, *a))
        try:
            # the lock only around each commit: searching stays possible meanwhile
            done = self.gate.index(meter)
        except UserError as exc:
            self.app.call_from_thread(self.index_failed, str(exc))
            return
        self.app.call_from_thread(self.indexed, done)

    def index_failed(self, message: str) -> None:
        self.indexing = False
        self.query_one("#index-progress", Label).update(message)

    def show_progress(self, stage: str, done: int, total: int | None, rate: float, eta: float | None) -> None:
        text = f"{stage}: {done:,}" + (f"/{total:,}" if total is not None else "") + f" · {rate:,.0f}/s"
        if total is not None:
            text += f" · ETA {human_duration(eta)}"
        self.query_one("#index-progress", Label).update(text)

    def indexed(self, done: dict[str, int]) -> None:
        self.indexing = False
        self.query_one("#index-progress", Label).update(f"indexed: {plural(done['embedded'], 'window')} embedded")
        self.host.data_changed()
