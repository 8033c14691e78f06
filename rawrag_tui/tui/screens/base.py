"""What every full screen shares: the nav bar, the footer, refresh after data changes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Input

from ..host import Host, host_of
from ..service import MemoryGate
from ..widgets.navbar import NavBar


class RawragScreen(Screen):
    #: Which nav bar entry is lit.
    PLACE = ""
    #: No focus by itself when the screen comes back (after a dialog, say): Textual would put it
    #: in the first text box, and the letter typed next, meant as a shortcut, would land there.
    #: Each screen focuses its main widget when mounted and when its place's key is pressed.
    AUTO_FOCUS = ""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen_version = -1

    def compose(self) -> ComposeResult:
        yield NavBar(self.PLACE, id="navbar")
        yield from self.body()
        yield Footer()

    def body(self) -> ComposeResult:
        return iter(())

    @property
    def host(self) -> Host:
        """The app, as the screens know it (these screens only ever run inside RawragApp)."""
        return host_of(self)

    @property
    def gate(self) -> MemoryGate:
        return self.host.gate

    def on_screen_resume(self) -> None:
        if self.seen_version != self.host.data_version:
            self.seen_version = self.host.data_version
            self.refresh_data()

    def data_changed(self) -> None:
        """Called by the app on the visible screen after an import or delete."""
        self.seen_version = self.host.data_version
        self.refresh_data()

    def refresh_data(self) -> None:
        """Reload what this screen shows from the store (in a worker)."""

    def focus_main(self) -> None:
        """Focus the widget a user comes to this screen for."""

    def action_leave_box(self) -> None:
        """Esc: out of a text box, so the next letter is a shortcut. It never moves focus *into*
        a box (a letter typed after esc once started a search for that letter); the screen's
        own key (/ for search, a for ask, i for import) goes back to its box."""
        if isinstance(self.focused, Input):
            self.set_focus(self.after_box())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """"esc Leave box" shows (and works) only while a text box has the focus; there the
        footer has no ? or q (they type), and esc is the way out to them."""
        if action == "leave_box":
            return isinstance(self.focused, Input)
        return True

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()

    def on_descendant_blur(self) -> None:
        self.refresh_bindings()

    def after_box(self) -> Widget | None:
        """Where focus goes when esc leaves the box (None: nowhere, the screen's keys work)."""
        return None
