"""``x``: the open conversation written to a file, as ``rawrag export --conversation`` writes it.

A small dialog asks the format (md, html, jsonl) and the path (a name made of
the conversation's title and first date, in the Downloads folder), asks again
before replacing a file, and the export itself runs in a worker: a long
conversation renders and writes while the app keeps answering keys. The file
is readable by its owner only (0600), through the CLI's own writer.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, RadioButton, RadioSet

from ...commands.export import write_private
from ...errors import UserError
from .. import keys
from ..host import host_of
from ..service import MemoryGate
from .dialogs import Confirm

FORMATS = (("md", "Markdown"), ("html", "HTML (offline)"), ("jsonl", "JSON lines"))


def downloads_folder() -> Path:
    """The user's Downloads folder, or the home directory where there is none."""
    from platformdirs import user_downloads_dir

    folder = Path(user_downloads_dir())
    return folder if folder.is_dir() else Path.home()


def default_path(title: str, first_ts: str | None, fmt: str, folder: Path | None = None) -> Path:
    """``lisbon-trip-2026-03-01.md``: the title as a file name (letters and digits of any script),
    the conversation's first date, the format's suffix."""
    slug = re.sub(r"[^\w]+", "-", title.lower()).strip("-_")[:60].strip("-") or "conversation"
    day = (first_ts or "")[:10]
    return (folder or downloads_folder()) / (f"{slug}-{day}.{fmt}" if day else f"{slug}.{fmt}")


@dataclass(frozen=True)
class ExportRequest:
    fmt: str
    path: str
    replace: bool  # the user said yes to replacing the file that is there


class ConfirmReplace(Confirm):
    """A file is already at the path: replaced only on a yes."""

    BINDINGS = keys.scope_bindings("replace dialog")
    yes_label, no_label = "Replace (y)", "Keep it (n)"

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def wording(self) -> tuple[str, str]:
        return "Replace the file?", f"{self.path}\nis already there. Replacing it loses what it holds."


class ExportDialog(ModalScreen[ExportRequest | None]):
    """The format and the path; enter in the path box exports, esc leaves with nothing written."""

    BINDINGS = keys.scope_bindings("export dialog")

    def __init__(self, title: str, first_ts: str | None, folder: Path | None = None):
        super().__init__()
        self.conversation_title = title
        self.fmt = "md"
        self.path = default_path(title, first_ts, self.fmt, folder)

    def compose(self) -> ComposeResult:
        with Vertical(id="export"):
            yield Label(f"Export “{self.conversation_title}”", id="export-title")
            with RadioSet(id="export-format", compact=True):
                for fmt, name in FORMATS:
                    yield RadioButton(f"{fmt} {name}", value=fmt == self.fmt, name=fmt, compact=True)
            yield Label("File (readable by you only):", classes="export-label")
            yield Input(str(self.path), id="export-path", placeholder="file to write", compact=True)
            with Horizontal(id="export-buttons"):
                yield Button("Export (enter)", id="export-go", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="export-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one("#export-path", Input).focus()

    @on(RadioSet.Changed, "#export-format")
    def format_changed(self, event: RadioSet.Changed) -> None:
        """The path's suffix follows the format while it is still the previous format's."""
        fmt = event.pressed.name or "md"
        box = self.query_one("#export-path", Input)
        if box.value.endswith(f".{self.fmt}"):
            box.value = box.value[: -len(self.fmt)] + fmt
        self.fmt = fmt
        box.focus()  # back to the path, where enter exports (enter on the formats picks one)

    @on(Input.Submitted, "#export-path")
    @on(Button.Pressed, "#export-go")
    def submit(self) -> None:
        typed = self.query_one("#export-path", Input).value.strip()
        if not typed:
            self.app.notify("Export: give the file to write.", severity="error")
            return
        path = Path(os.path.abspath(os.path.expanduser(typed)))
        if path.is_dir():
            self.app.notify(f"{path}: is a folder; give a file name in it.", severity="error")
            return
        if not path.parent.is_dir():
            self.app.notify(f"{path.parent}: no such folder.", severity="error")
            return
        if path.exists():
            def decided(yes: bool | None) -> None:
                if yes:
                    self.dismiss(ExportRequest(self.fmt, str(path), replace=True))

            self.app.push_screen(ConfirmReplace(str(path)), decided)
            return
        self.dismiss(ExportRequest(self.fmt, str(path), replace=False))

    @on(Button.Pressed, "#export-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


def start_export(screen: Screen, conversation_id: int, title: str, first_ts: str | None) -> None:
    """Ask the format and the path for ``conversation_id``, then write it in a worker of the app's
    (it finishes, and says so, even when the screen it was started from is closed meanwhile)."""
    app, gate = screen.app, host_of(screen).gate

    def chosen(request: ExportRequest | None) -> None:
        if request is not None:
            app.run_worker(lambda: write_export(app, gate, conversation_id, request), thread=True,
                           group="export", description=f"export to {request.path}")

    app.push_screen(ExportDialog(title, first_ts), chosen)


def write_export(app: App, gate: MemoryGate, conversation_id: int, request: ExportRequest) -> None:
    """Render (under the store lock) and write (outside it); every outcome is one notification line."""
    try:
        text, count = gate.export(request.fmt, conversation_id)
        write_private(request.path, text, replace=request.replace)
    except FileExistsError:
        app.call_from_thread(app.notify, f"{request.path}: a file appeared there; nothing written.",
                             severity="error")
    except OSError as exc:
        app.call_from_thread(app.notify, f"{request.path}: cannot write: {exc.strerror or exc}", severity="error")
    except UserError as exc:  # e.g. the conversation was deleted meanwhile
        app.call_from_thread(app.notify, str(exc), severity="error")
    else:
        noun = "message" if count == 1 else "messages"
        app.call_from_thread(app.notify, f"exported {count:,} {noun} to {request.path}")
