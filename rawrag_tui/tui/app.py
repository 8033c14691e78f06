"""The rawrag terminal app: one factory shared by the CLI and the tests.

``build_app`` takes an open Memory (tests pass one with the session's
embedder) or a home directory; ``run_app`` is what ``rawrag`` with no
subcommand runs. Screens are Textual modes, so each keeps its state while you
move between them; a conversation opened from a hit or a citation is pushed
on top of the mode it was opened from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.screen import ModalScreen, Screen

from ..errors import UserError
from ..progress import ProgressMeter
from . import keys
from .host import Host
from .screens.ask import AskScreen
from .screens.base import RawragScreen
from .screens.conversation import ConversationScreen
from .screens.dialogs import ConfirmDelete, HelpScreen, WelcomeScreen
from .screens.importing import ImportScreen
from .screens.library import LibraryScreen
from .screens.search import SearchScreen
from .screens.status import StatusScreen
from .service import MemoryGate

if TYPE_CHECKING:
    from ..memory import Memory, Settings


class RawragApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "rawrag"
    BINDINGS = keys.scope_bindings("everywhere")
    MODES: ClassVar[dict[str, str | Callable[[], Screen]]] = {
        "library": LibraryScreen,
        "search": SearchScreen,
        "ask": AskScreen,
        "import": ImportScreen,
        "status": StatusScreen,
    }

    def __init__(self, memory: Memory, *, display_home: str | None = None, cursor_blink: bool = True,
                 warm_up: bool = True):
        super().__init__()
        self.memory = memory
        self.gate = MemoryGate(memory)
        self.display_home = display_home
        self.cursor_blink = cursor_blink
        self.warm_up_models = warm_up
        self.data_version = 0
        self.user_keymap = dict(memory.settings.keymap)
        self.active_meters: set[ProgressMeter] = set()

    @property
    def settings(self) -> Settings:
        return self.memory.settings

    def on_mount(self) -> None:
        self.set_keymap(self.user_keymap)
        stray = keys.unknown_ids(self.user_keymap)
        if stray:
            self.notify(f"config.toml [keymap]: unknown binding id(s) {', '.join(stray)}; see ? for the ids",
                        severity="warning", timeout=8)
        empty = self.gate.status()["conversations"] == 0  # no worker runs yet: safe on this thread
        self.switch_mode("library")
        if empty:
            self.push_screen(WelcomeScreen())
        if self.warm_up_models:
            self.warm_up()

    @work(thread=True, group="warm-up")
    def warm_up(self) -> None:
        """Load the embedder (~2 s) while the user looks around, so the first search is quick."""
        try:
            self.gate.warm_up()
        except UserError as exc:  # e.g. a missing model: say so, keep the app (lexical search still works)
            self.call_from_thread(self.notify, str(exc), severity="error", timeout=15)

    # -- navigation ------------------------------------------------------------

    def action_go(self, mode: str) -> None:
        if isinstance(self.screen, ModalScreen):
            return
        if self.current_mode != mode:
            self.switch_mode(mode)
        self.call_after_refresh(self._arrived, mode)

    def _arrived(self, mode: str) -> None:
        while len(self.screen_stack) > 1 and isinstance(self.screen, ConversationScreen):
            self.pop_screen()
        if isinstance(self.screen, RawragScreen):
            self.screen.focus_main()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_load_demo(self) -> None:
        from ..demo import demo_path

        def start() -> None:
            screen = self.base_screen("import")
            if isinstance(screen, ImportScreen):
                screen.start(str(demo_path()), "jsonl", shown_path="the demo history")

        self.action_go("import")
        self.call_after_refresh(start)

    def base_screen(self, mode: str) -> Screen | None:
        """The screen of ``mode`` when it is the current mode (None otherwise)."""
        return self.screen_stack[0] if self.current_mode == mode else None

    def open_conversation(self, conversation_id: int, *, focus_message_id: int | None = None,
                          marked: Iterable[int] = (), query: str = "") -> None:
        self.push_screen(ConversationScreen(conversation_id, focus_message_id=focus_message_id,
                                            marked=tuple(marked), query=query, place=self.current_mode))

    # -- data changes ------------------------------------------------------------

    def data_changed(self) -> None:
        """After an import, index or delete: the visible screen reloads now, the others when shown."""
        self.data_version += 1
        if isinstance(self.screen, RawragScreen):
            self.screen.data_changed()

    def confirm_delete(self, kind: str, item_id: int, label: str, detail: str) -> None:
        def decided(yes: bool | None) -> None:
            if yes:
                self.delete(kind, item_id, label)

        self.push_screen(ConfirmDelete(kind, label, detail), decided)

    @work(thread=True, group="delete")
    def delete(self, kind: str, item_id: int, label: str) -> None:
        delete = self.gate.delete_conversation if kind == "conversation" else self.gate.delete_source
        try:
            removed = delete(item_id)
        except UserError as exc:  # already gone (deleted elsewhere)
            self.call_from_thread(self.notify, str(exc), severity="warning")
            self.call_from_thread(self.data_changed)
            return
        self.call_from_thread(self.deleted, kind, item_id, label, removed)

    def deleted(self, kind: str, item_id: int, label: str, removed: dict[str, int]) -> None:
        while isinstance(self.screen, ConversationScreen) and (
                kind == "source" or self.screen.conversation_id == item_id):
            self.pop_screen()
        self.notify(f"Deleted {kind} “{label}”: {removed.get('messages', 0):,} messages.")
        self.data_changed()

    # -- command palette -----------------------------------------------------------

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's own "Keys" (its help panel) would stand beside ours: the palette lists Keys once.
        yield from (command for command in super().get_system_commands(screen) if command.title != "Keys")
        yield SystemCommand("Library", "Browse sources and conversations", lambda: self.action_go("library"))
        yield SystemCommand("Search", "Search your history as you type", lambda: self.action_go("search"))
        yield SystemCommand("Ask", "Ask a question; the answer cites your messages", lambda: self.action_go("ask"))
        yield SystemCommand("Import", "Import an export file, folder or zip", lambda: self.action_go("import"))
        yield SystemCommand("Status", "Profile, data location, index freshness, device",
                            lambda: self.action_go("status"))
        yield SystemCommand("Load demo data", "Import the shipped sample history", self.action_load_demo)
        yield SystemCommand("Index now", "Embed windows that wait for embeddings", self._index_now)
        yield SystemCommand("Keys", "Every key binding and its id", self.action_help)
        if isinstance(screen, SearchScreen):
            yield SystemCommand("Switch search mode", "hybrid → dense → lexical", screen.action_cycle_mode)
        if isinstance(screen, AskScreen):
            yield SystemCommand("Show or hide evidence", "What the reader saw", screen.action_toggle_evidence)
        if isinstance(screen, ImportScreen) and screen.running:
            yield SystemCommand("Cancel import", "Roll the import back", screen.action_cancel_import)
        if isinstance(screen, (LibraryScreen, ConversationScreen)):
            yield SystemCommand("Delete", "Delete the selected conversation or source (asks first)",
                                screen.action_delete)
            yield SystemCommand("Export conversation", "Write the conversation shown as md, html or jsonl (0600)",
                                screen.action_export)

    def _index_now(self) -> None:
        def start() -> None:
            screen = self.base_screen("status")
            if isinstance(screen, StatusScreen):
                screen.action_index_now()

        self.action_go("status")
        self.call_after_refresh(start)

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Textual saves to the Downloads folder; where there is none, save to the working directory."""
        if path is None:
            from platformdirs import user_downloads_path

            if not Path(user_downloads_path()).is_dir():
                path = str(Path.cwd())
        return super().deliver_screenshot(filename, path, time_format)

    async def action_quit(self) -> None:
        for meter in list(self.active_meters):  # an import in flight rolls back
            meter.cancel.set()
        self.exit()


#: The screens know the app only as a Host (host.py, no import of this module): the type checker
#: checks here that RawragApp is one.
_AS_HOST: type[Host] = RawragApp


def build_app(memory_or_home: Any = None, *, display_home: str | None = None, cursor_blink: bool = True,
              warm_up: bool = True, embedder: Any = None) -> RawragApp:
    """The app over an open Memory, or over one opened on a home directory (``None``: the default)."""
    if hasattr(memory_or_home, "search") and hasattr(memory_or_home, "settings"):
        memory = memory_or_home
    else:
        from ..memory import Memory

        memory = Memory.open(Path(memory_or_home) if memory_or_home else None, embedder=embedder)
    return RawragApp(memory, display_home=display_home, cursor_blink=cursor_blink, warm_up=warm_up)


def run_app(home: str | Path | None = None) -> int:
    from .unlock import unlock_if_needed

    if not unlock_if_needed(home):  # an encrypted store: its passphrase first (Esc: nothing opened)
        return 1
    app = build_app(home)
    try:
        app.run()
    finally:
        app.gate.close()  # an import cancelled on quit finishes rolling back first
    return app.return_code or 0
