"""What the screens know of the app they run in: a Protocol, not app.py.

The app imports every screen; a screen that imported the app back (even for
type hints only) closed one import circle through all of them. So a screen
sees the app as a :class:`Host`: the memory gate, the settings, the user's
keymap, the few app-wide states and the app's own actions the screens call.
Textual's side of the app (``call_from_thread``, ``notify``, ``exit``) is
``screen.app`` as usual. ``RawragApp`` is checked against this Protocol where
it is defined.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, cast

from textual.screen import Screen

if TYPE_CHECKING:
    from ..memory import Settings
    from ..progress import ProgressMeter
    from .service import MemoryGate


class Host(Protocol):
    """The app as the screens use it."""

    @property
    def gate(self) -> MemoryGate:
        """Every call into the memory, serialised behind the app's store lock."""
        ...

    @property
    def settings(self) -> Settings:
        """The open home's settings (read only)."""
        ...

    @property
    def user_keymap(self) -> dict[str, str]:
        """config.toml's [keymap]: binding id -> keys."""
        ...

    @property
    def display_home(self) -> str | None:
        """How to show the home's path (None: the real path)."""
        ...

    @property
    def cursor_blink(self) -> bool: ...

    @property
    def data_version(self) -> int:
        """Increases after every import, index or delete; a screen shown again reloads when it moved."""
        ...

    @property
    def active_meters(self) -> set[ProgressMeter]:
        """Imports in flight: quitting cancels them (they roll back)."""
        ...

    def data_changed(self) -> None: ...

    def action_go(self, mode: str) -> None: ...

    def action_load_demo(self) -> None: ...

    def open_conversation(self, conversation_id: int, *, focus_message_id: int | None = None,
                          marked: Iterable[int] = (), query: str = "") -> None: ...

    def confirm_delete(self, kind: str, item_id: int, label: str, detail: str) -> None: ...


def host_of(screen: Screen) -> Host:
    """The app ``screen`` runs in, as a Host (every rawrag screen runs only inside RawragApp)."""
    return cast("Host", screen.app)
