"""Status and models: profile, where the data lives, index freshness, execution device."""

from __future__ import annotations

from rich.table import Table
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from ...errors import UserError
from .. import keys
from ..service import ProgressMeter, human_duration
from .base import RawragScreen


def execution_device(memory) -> str:
    """Which device the models run on and why, as the facade reports it."""
    report = memory.device()
    return f"{report['device'] or 'none'} ({report['reason']})"


def size_text(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1024
    return f"{n} B"


def on_disk(db_path) -> int:
    """The database with its write-ahead log: until a checkpoint, new data lives in the -wal file."""
    total = 0
    for suffix in ("", "-wal"):
        try:
            total += db_path.with_name(db_path.name + suffix).stat().st_size
        except OSError:
            pass
    return total


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

    @work(thread=True, exclusive=True, group="status")
    def load(self) -> None:
        status = self.gate("status")
        device = execution_device(self.app.memory)
        self.app.call_from_thread(self.show, status, device)

    def show(self, st: dict, device: str) -> None:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        pending = st["pending_embeddings"]
        freshness = "up to date" if pending == 0 else f"{pending:,} windows wait for embeddings (x: index now)"
        rows = [
            ("Profile", st["profile"]),
            ("Data location", self.app.display_home or st["home"]),
            ("Database", f"{self.app.memory.settings.db_path.name}, {size_text(on_disk(self.app.memory.settings.db_path))}"),
            ("Library", f"{st['sources']:,} sources · {st['conversations']:,} conversations · "
                        f"{st['messages']:,} messages"),
            ("Index", f"{st['windows']:,} windows · {freshness}"),
            ("Embedding model", st["embedding_fingerprint"] or "none yet"),
            ("Device", device),
            ("Search", f"{st['retrieval']['mode']} · recall {st['retrieval']['candidates']} · "
                       f"keep {st['retrieval']['top_k']}"),
            ("Windows", f"{st['window']['tokens']} tokens, stride {st['window']['stride']}, "
                        f"{st['window']['encoding']}"),
            ("Reader", "available (loads on the first question)" if getattr(self.app.memory, "ask", None)
             else "not installed"),
        ]
        self.rows = {name: str(value) for name, value in rows}
        for name, value in self.rows.items():
            table.add_row(name, value)
        self.query_one("#status-table", Static).update(table)

    def action_refresh_status(self) -> None:
        self.load()

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
            done = self.gate("index", meter)
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

    def indexed(self, done: dict) -> None:
        self.indexing = False
        self.query_one("#index-progress", Label).update(f"indexed: {done['embedded']:,} windows embedded")
        self.app.data_changed()
