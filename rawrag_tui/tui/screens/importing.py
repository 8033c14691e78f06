"""Import: a path with completion, the detected format, progress with rate and ETA, safe cancel.

Leaving the screen (esc, or any place's key) leaves the import running: it
goes on in its worker, and says when it is done wherever you are. Cancelling
is its own key (c), and asks first.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input, Label, ProgressBar, Static

from ... import toolkit
from ...errors import UserError
from .. import keys
from ..fmt import plural
from ..service import Cancelled, ProgressMeter, human_duration
from ..widgets.paths import PathInput
from .base import RawragScreen
from .dialogs import ConfirmCancelImport

if TYPE_CHECKING:
    from ...memory import ImportReport


UNITS = {"import": "messages", "parse": "messages", "embed": "windows"}


class ImportScreen(RawragScreen):
    PLACE = "import"
    BINDINGS = keys.scope_bindings("import")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.meter: ProgressMeter | None = None
        self.running = False
        self._detect_timer = None
        #: The last import's result, as shown: "new" until seen and left, then "previous".
        self.result_state: str | None = None
        self.result_text = ""
        self.finished_at = ""

    def body(self) -> ComposeResult:
        yield Label("Import an export: a file, a folder or a zip. Tab accepts a completion.", classes="pane-title")
        yield PathInput(placeholder="path, e.g. ~/Downloads/export.zip", id="path")
        yield Label("format: —", id="detected")
        with Horizontal(id="import-buttons"):
            yield Button("Import", id="start", variant="primary")
            yield Button("Cancel (c)", id="cancel", disabled=True)
        yield ProgressBar(id="progress", show_eta=False, total=1, classes="hidden")
        yield Label("", id="rate")
        yield Static("", id="import-result")

    def on_mount(self) -> None:
        self.query_one("#path", Input).cursor_blink = self.host.cursor_blink
        if not self.running:  # the demo's import may have started before the screen mounted
            self.focus_main()

    def focus_main(self) -> None:
        self.query_one("#path").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The cancel key shows (and works) only while an import runs."""
        if action == "cancel_import":
            return self.running
        return super().check_action(action, parameters)

    def on_screen_suspend(self) -> None:
        if self.result_state == "new" and self._result_seen:
            self.result_state = "previous"

    def on_screen_resume(self) -> None:
        """Back on the screen: a result already seen reads as the previous import's, not as news."""
        self._result_seen = self.result_state == "new"
        if self.result_state == "previous":
            result = self.query_one("#import-result", Static)
            result.set_classes("previous")
            result.update(f"Previous import (finished {self.finished_at}): {self.result_text}")

    _result_seen = False

    # -- format detection ----------------------------------------------------

    @on(Input.Changed, "#path")
    def path_changed(self, event: Input.Changed) -> None:
        if self._detect_timer:
            self._detect_timer.stop()
        value = event.value.strip()
        if not value:
            self.query_one("#detected", Label).update("format: —")
            return
        self._detect_timer = self.set_timer(0.3, lambda: self.detect(value))

    @work(thread=True, exclusive=True, group="detect")
    def detect(self, path: str) -> None:
        try:
            text = f"format: {toolkit.detect_format(path)} (detected)"
        except UserError as exc:
            text = f"format: not recognised: {exc}"
        except OSError as exc:
            text = f"format: cannot read: {exc}"
        self.app.call_from_thread(self.show_detected, path, text)

    def show_detected(self, path: str, text: str) -> None:
        if self.query_one("#path", Input).value.strip() == path:
            self.query_one("#detected", Label).update(text)

    # -- importing -------------------------------------------------------------

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        self.start(self.query_one("#path", Input).value.strip())

    def start(self, path: str, fmt: str = "auto", shown_path: str | None = None) -> None:
        if self.running:
            return
        if not path:
            self.query_one("#import-result", Static).update("Type the path of an export first.")
            return
        self.running = True
        self.refresh_bindings()
        self.result_state = None
        self.query_one("#start", Button).disabled = True
        self.query_one("#cancel", Button).disabled = False
        self.query_one("#import-result", Static).update("")
        # out of the path box: c (cancel) and the places' keys work at once (after any focus()
        # still queued, as the demo's start leaves one: Widget.focus is deferred)
        self.app.call_after_refresh(self.set_focus, None)
        bar = self.query_one("#progress", ProgressBar)
        bar.remove_class("hidden")
        bar.update(total=None, progress=0)
        self.query_one("#rate", Label).update(f"importing {shown_path or path}…")
        self.meter = ProgressMeter(lambda *a: self.app.call_from_thread(self.show_progress, *a))
        self.host.active_meters.add(self.meter)
        self.run_import(str(Path(path).expanduser()), fmt)

    @work(thread=True, exclusive=True, group="import")
    def run_import(self, path: str, fmt: str) -> None:
        meter = self.meter
        assert meter is not None  # start() sets it before starting this worker
        try:
            # Store and window under the lock (one transaction), then embed in
            # this background worker holding the lock only for each commit:
            # the new messages are searchable by words at once, by meaning as
            # their vectors land.
            report = self.gate.import_path(path, fmt, progress=meter)
            self.app.call_from_thread(self.query_one("#import-result", Static).update,
                                      "Stored: searchable by words now; embedding in the background for search "
                                      "by meaning (you can search meanwhile).")
            report.embedded = self.gate.index(meter)["embedded"]
        except Cancelled:
            if meter.stage == "embed":
                pending = self.gate.status()["pending_embeddings"]
                text = (f"Cancelled while embedding: the messages are stored and searchable by words; "
                        f"{pending:,} windows wait for embeddings (Status, x).")
                changed = True
            else:
                text, changed = "Cancelled: nothing was imported (the import was rolled back).", False
            self.app.call_from_thread(self.finish, text, changed, "warning")
            return
        except UserError as exc:
            self.app.call_from_thread(self.finish, str(exc), False, "error")
            return
        self.app.call_from_thread(self.finish, self.summary(report), True, "done")

    @staticmethod
    def summary(report: ImportReport) -> str:
        text = (f"Imported {plural(report.conversations, 'conversation')} ({report.format}): "
                f"{report.messages_added:,} new of {plural(report.messages_seen, 'message')}; "
                f"{plural(report.embedded, 'window')} embedded.")
        if report.already_imported:
            text += " This file was imported before; only new messages were added."
        skipped = sum(report.skipped.values())
        if skipped:
            text += f" Skipped {skipped:,} items (" + ", ".join(f"{k}: {v}" for k, v in report.skipped.items()) + ")."
        if report.errors:
            text += f" {len(report.errors)} problem(s): {report.errors[0]}"
        return text

    def show_progress(self, stage: str, done: int, total: int | None, rate: float, eta: float | None) -> None:
        bar = self.query_one("#progress", ProgressBar)
        bar.update(total=total, progress=done)
        unit = UNITS.get(stage, "items")
        text = (f"{stage}: {done:,}" + (f"/{total:,}" if total is not None else "") + f" {unit}"
                + (f" · {rate:,.0f}/s" if rate > 0 else ""))
        if total is not None:
            text += f" · ETA {human_duration(eta)}"
        self.query_one("#rate", Label).update(text)

    def finish(self, text: str, changed: bool, outcome: str) -> None:
        self.running = False
        self.refresh_bindings()
        self.result_state, self.result_text = "new", text
        self.finished_at = datetime.now().strftime("%H:%M")
        self._result_seen = self.app.screen is self
        if not self._result_seen:  # the user went elsewhere meanwhile: say it there
            self.app.notify(text, title="Import", severity="information" if outcome == "done" else "warning",
                            timeout=10)
        self.host.active_meters.discard(self.meter)
        self.query_one("#start", Button).disabled = False
        self.query_one("#cancel", Button).disabled = True
        bar = self.query_one("#progress", ProgressBar)
        if outcome == "done":
            bar.update(total=1, progress=1)
        else:
            bar.update(total=1, progress=0)
        self.query_one("#rate", Label).update("")
        result = self.query_one("#import-result", Static)
        result.set_classes(outcome)
        result.update(text)
        if changed:
            self.host.data_changed()

    @on(Button.Pressed, "#cancel")
    def action_cancel_import(self) -> None:
        """Cancel a running import, after a yes: stored messages roll back, or (while embedding)
        stay searchable by words with the rest of the embedding left for later."""
        if not (self.running and self.meter is not None):
            return
        meter = self.meter

        def decided(yes: bool | None) -> None:
            if yes and self.running and self.meter is meter:
                meter.cancel.set()
                self.query_one("#rate", Label).update("cancelling…")

        self.app.push_screen(ConfirmCancelImport(embedding=meter.stage == "embed"), decided)
