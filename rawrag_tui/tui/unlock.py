"""The passphrase of an encrypted store, asked before the app opens it.

The app cannot open a store it has no key for, so the question comes first,
in a small app of its own: one modal screen with a hidden input. A wrong
passphrase says so and asks again; Escape leaves without opening anything.
The passphrase that opens the store is kept for this process only
(``toolkit.unlock``); none is asked where the keyring or RAWRAG_PASSPHRASE
already opens it.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from .. import toolkit
from ..errors import UserError


class PassphraseScreen(ModalScreen[bool]):
    """Dismissed with True once a passphrase has opened the store, False on Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "give_up", "Quit")]
    DEFAULT_CSS = """
    PassphraseScreen { align: center middle; }
    #unlock { width: 64; height: auto; border: round $accent; padding: 1 2; background: $panel; }
    #unlock-error { color: $error; height: auto; }
    """

    def __init__(self, home: str | Path | None):
        super().__init__()
        self.home = home

    def compose(self) -> ComposeResult:
        with Vertical(id="unlock"):
            yield Label("This memory is encrypted.", id="unlock-title")
            yield Static(str(toolkit.default_home() if self.home is None else self.home), id="unlock-home")
            yield Input(password=True, placeholder="passphrase (Enter opens, Esc quits)", id="unlock-input")
            yield Static("", id="unlock-error")

    @on(Input.Submitted, "#unlock-input")
    def try_passphrase(self, event: Input.Submitted) -> None:
        try:
            toolkit.unlock(self.home, event.value)
        except UserError:
            self.query_one("#unlock-error", Static).update("Wrong passphrase. Try again.")
            event.input.clear()
            return
        self.dismiss(True)

    def action_give_up(self) -> None:
        self.dismiss(False)


class UnlockApp(App[bool]):
    """Just the passphrase screen; returns whether the store was opened."""

    def __init__(self, home: str | Path | None):
        super().__init__()
        self.home = home

    def on_mount(self) -> None:
        self.push_screen(PassphraseScreen(self.home), self.exit)


def unlock_if_needed(home: str | Path | None) -> bool:
    """True when the store can be opened now (plain, or a passphrase at hand or typed here)."""
    if not toolkit.needs_passphrase(home):
        return True
    return bool(UnlockApp(home).run())
