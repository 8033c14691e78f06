"""Modal dialogs: the delete confirmation, the keys help, the first-run welcome."""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Label, Static

from .. import keys
from ..host import host_of
from ..widgets.lists import VimDataTable


class ConfirmDelete(ModalScreen[bool]):
    """Names exactly what will go; nothing is deleted unless the user says yes."""

    BINDINGS = keys.scope_bindings("confirm dialog")

    def __init__(self, kind: str, label: str, detail: str):
        super().__init__()
        self.kind, self.label, self.detail = kind, label, detail

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(f"Delete this {self.kind}?", id="confirm-title")
            yield Static(f"“{self.label}”\n{self.detail} will be removed from the store, with their search "
                         f"index. This cannot be undone.", id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button("Delete (y)", id="yes", variant="error")
                yield Button("Keep (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    @on(Button.Pressed, "#yes")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_cancel(self) -> None:
        self.dismiss(False)


class ConfirmCancelImport(ModalScreen[bool]):
    """Cancelling an import is never one stray key: it says what stays and what goes, and asks."""

    BINDINGS = keys.scope_bindings("cancel dialog")

    def __init__(self, embedding: bool):
        super().__init__()
        self.embedding = embedding

    def compose(self) -> ComposeResult:
        what = ("The messages are stored and stay searchable by words; the windows not embedded yet "
                "wait for embeddings (Status, x embeds them later)." if self.embedding else
                "Nothing of this import is kept: it is rolled back.")
        with Vertical(id="confirm"):
            yield Label("Cancel the import?", id="confirm-title")
            yield Static(what, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button("Cancel it (y)", id="yes", variant="error")
                yield Button("Keep importing (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    @on(Button.Pressed, "#yes")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_cancel(self) -> None:
        self.dismiss(False)


class HelpScreen(ModalScreen[None]):
    """Every binding, with the keys in force after the user's keymap."""

    BINDINGS = keys.scope_bindings("help")

    def compose(self) -> ComposeResult:
        with Vertical(id="help"):
            yield Label("Keys  (ctrl+p: every action by name · esc closes)", id="help-title")
            table = VimDataTable(id="help-table", cursor_type="row")
            table.add_columns("Key", "Action", Text("Id (for config.toml [keymap])"))
            keymap = host_of(self).user_keymap
            scope = None
            for key, live in keys.effective(keymap):
                if key.scope != scope:
                    scope = key.scope
                    table.add_row("", Text(scope, style="bold"), "")
                table.add_row(keys.display(live), key.description, key.id)
                if key.id == "app.quit":
                    table.add_row("enter", "Open / run", "(textual)")
                    table.add_row("ctrl+p", "Command palette", "(textual)")
                    table.add_row("tab", "Next pane", "(textual)")
            yield table

    def on_mount(self) -> None:
        self.query_one("#help-table").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class WelcomeScreen(Screen):
    """The first run: an empty store; offers the demo history or an import."""

    BINDINGS = keys.scope_bindings("welcome")

    def compose(self) -> ComposeResult:
        host = host_of(self)  # shown only by RawragApp
        home = host.display_home or str(host.settings.home)
        with Vertical(id="welcome"):
            yield Label("Welcome to rawrag", id="welcome-title")
            yield Static(
                "Your memory is empty. rawrag keeps your chat history in one file on this machine, "
                "searchable and answerable offline. Your data lives in:", classes="welcome-text")
            yield Static(home, id="welcome-home")
            with Vertical(id="welcome-buttons"):
                yield Button("d  Load the demo history (4 conversations)", id="demo", variant="primary", compact=True)
                yield Button("i  Import an export", id="import", compact=True)
                yield Button("q  Quit", id="quit", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#demo").focus()

    def on_screen_resume(self) -> None:
        self.check_empty()

    @work(thread=True, exclusive=True, group="welcome")
    def check_empty(self) -> None:
        if host_of(self).gate.status()["conversations"]:
            self.app.call_from_thread(self.dismiss)

    @on(Button.Pressed, "#demo")
    def action_load_demo(self) -> None:
        host_of(self).action_load_demo()

    @on(Button.Pressed, "#import")
    def go_import(self) -> None:
        host_of(self).action_go("import")

    @on(Button.Pressed, "#quit")
    def quit(self) -> None:
        self.app.exit()
