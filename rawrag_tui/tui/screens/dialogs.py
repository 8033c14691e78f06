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


class Confirm(ModalScreen[bool]):
    """A yes-or-no question that does nothing without a yes: the focus starts on "no".

    A subclass says what it asks (:meth:`wording`), its buttons' words and its key scope."""

    yes_label = "Yes (y)"
    no_label = "No (n)"

    def wording(self) -> tuple[str, str]:
        """The title and the text that says what a yes does."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        title, text = self.wording()
        with Vertical(id="confirm"):
            yield Label(title, id="confirm-title")
            yield Static(text, id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(self.yes_label, id="yes", variant="error")
                yield Button(self.no_label, id="no")

    def on_mount(self) -> None:
        self.query_one("#no").focus()

    @on(Button.Pressed, "#yes")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_cancel(self) -> None:
        self.dismiss(False)


class ConfirmDelete(Confirm):
    """Names exactly what will go; nothing is deleted unless the user says yes."""

    BINDINGS = keys.scope_bindings("confirm dialog")
    yes_label, no_label = "Delete (y)", "Keep (n)"

    def __init__(self, kind: str, label: str, detail: str):
        super().__init__()
        self.kind, self.label, self.detail = kind, label, detail

    def wording(self) -> tuple[str, str]:
        return (f"Delete this {self.kind}?",
                f"“{self.label}”\n{self.detail} will be removed from the store, with their search "
                f"index. This cannot be undone.")


class ConfirmCancelImport(Confirm):
    """Cancelling an import is never one stray key: it says what stays and what goes, and asks."""

    BINDINGS = keys.scope_bindings("cancel dialog")
    yes_label, no_label = "Cancel it (y)", "Keep importing (n)"

    def __init__(self, embedding: bool):
        super().__init__()
        self.embedding = embedding

    def wording(self) -> tuple[str, str]:
        return "Cancel the import?", (
            "The messages are stored and stay searchable by words; the windows not embedded yet "
            "wait for embeddings (Status, x embeds them later)." if self.embedding else
            "Nothing of this import is kept: it is rolled back.")


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
