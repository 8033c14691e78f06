"""What every full screen shares: the nav bar, the footer, refresh after data changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from ..widgets.navbar import NavBar

if TYPE_CHECKING:
    from textual import getters

    from ..app import RawragApp


class RawragScreen(Screen):
    #: Which nav bar entry is lit.
    PLACE = ""

    if TYPE_CHECKING:
        # These screens only ever run inside RawragApp: lets the type checker see its attributes.
        app = getters.app(RawragApp)

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
    def gate(self):
        return self.app.gate

    def on_screen_resume(self) -> None:
        if self.seen_version != self.app.data_version:
            self.seen_version = self.app.data_version
            self.refresh_data()

    def data_changed(self) -> None:
        """Called by the app on the visible screen after an import or delete."""
        self.seen_version = self.app.data_version
        self.refresh_data()

    def refresh_data(self) -> None:
        """Reload what this screen shows from the store (in a worker)."""

    def focus_main(self) -> None:
        """Focus the widget a user comes to this screen for."""
