"""What every full screen shares: the nav bar, the footer, refresh after data changes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer

from ..host import Host, host_of
from ..service import MemoryGate
from ..widgets.navbar import NavBar


class RawragScreen(Screen):
    #: Which nav bar entry is lit.
    PLACE = ""

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
