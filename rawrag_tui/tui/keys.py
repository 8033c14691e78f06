"""Every key binding, with its id, in one table.

The widgets build their ``BINDINGS`` from here, the help screen lists this
table, and ``[keymap]`` in config.toml overrides keys by id (Textual's
``App.set_keymap``). One table means the help can never disagree with the keys.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType


@dataclass(frozen=True)
class Key:
    id: str
    key: str
    action: str
    description: str
    scope: str  # where it works, for the help screen
    show: bool = True
    priority: bool = False
    key_display: str | None = None

    def binding(self) -> Binding:
        return Binding(self.key, self.action, self.description, show=self.show, priority=self.priority,
                       key_display=self.key_display, id=self.id)


KEYS: tuple[Key, ...] = (
    # everywhere (the places are on the nav bar: the footer keeps its room for the screen's
    # own keys, ? and q, which must show at 80 columns)
    Key("app.library", "l", "go('library')", "Library", "everywhere", show=False),
    Key("app.search", "slash", "go('search')", "Search", "everywhere", show=False, key_display="/"),
    Key("app.ask", "a", "go('ask')", "Ask", "everywhere", show=False),
    Key("app.import", "i", "go('import')", "Import", "everywhere", show=False),
    Key("app.status", "s", "go('status')", "Status", "everywhere", show=False),
    Key("app.help", "question_mark", "help", "Keys", "everywhere", key_display="?"),
    Key("app.quit", "q", "quit", "Quit", "everywhere"),
    # lists and tables
    Key("list.down", "j", "cursor_down", "Down", "lists", show=False),
    Key("list.up", "k", "cursor_up", "Up", "lists", show=False),
    # transcript
    Key("transcript.down", "j,down", "next_message", "Next message", "transcript", show=False),
    Key("transcript.up", "k,up", "previous_message", "Previous message", "transcript", show=False),
    Key("transcript.page_down", "pagedown,space", "page_down", "Page down", "transcript", show=False),
    Key("transcript.page_up", "pageup,b", "page_up", "Page up", "transcript", show=False),
    Key("transcript.top", "g,home", "first_message", "First message", "transcript", show=False),
    Key("transcript.bottom", "G,end", "last_message", "Last message", "transcript", show=False),
    Key("transcript.next_mark", "n", "next_mark", "Next marked", "transcript"),
    Key("transcript.previous_mark", "N", "previous_mark", "Previous marked", "transcript", show=False),
    # library
    Key("library.filter", "f", "focus_filter", "Filter", "library"),
    Key("library.delete", "d", "delete", "Delete", "library"),
    Key("library.back", "escape", "back", "Back", "library", show=False),
    # search
    Key("search.mode", "ctrl+t", "cycle_mode", "Search mode", "search"),
    Key("search.results", "down", "focus_results", "Go to results", "search", show=False),
    Key("search.toggle", "escape", "leave_box", "Leave box", "search"),
    # ask
    Key("ask.evidence", "e", "toggle_evidence", "Evidence", "ask"),
    Key("ask.all_evidence", "E", "all_evidence", "All evidence", "ask"),
    Key("ask.toggle", "escape", "leave_box", "Leave box", "ask"),
    # import
    Key("import.cancel", "c", "cancel_import", "Cancel import", "import"),
    Key("import.leave", "escape", "leave_box", "Leave box", "import"),
    Key("import.complete", "tab", "complete", "Take the path completion", "import path box", show=False),
    # status
    Key("status.index", "x", "index_now", "Index now", "status"),
    Key("status.refresh", "r", "refresh_status", "Refresh", "status"),
    Key("status.sync", "u", "sync_now", "Sync now", "status"),
    # an opened conversation
    Key("conversation.back", "escape", "back", "Back", "conversation"),
    Key("conversation.delete", "d", "delete", "Delete", "conversation"),
    # the conversation shown (the Library's transcript, or one opened from a hit): one key, both places
    Key("export.open", "x", "export", "Export", "library, conversation"),
    # first run
    Key("welcome.demo", "d", "load_demo", "Load demo data", "welcome"),
    # dialogs
    Key("confirm.yes", "y", "confirm", "Delete", "confirm dialog"),
    Key("confirm.no", "n,escape", "cancel", "Keep", "confirm dialog"),
    Key("cancel.yes", "y", "confirm", "Cancel the import", "cancel dialog"),
    Key("cancel.no", "n,escape", "cancel", "Keep importing", "cancel dialog"),
    Key("export.cancel", "escape", "cancel", "Cancel", "export dialog"),
    Key("replace.yes", "y", "confirm", "Replace the file", "replace dialog"),
    Key("replace.no", "n,escape", "cancel", "Keep it", "replace dialog"),
    Key("help.close", "escape,question_mark", "close", "Close", "help", key_display="esc"),
)

BY_ID = {k.id: k for k in KEYS}


def bindings(*ids: str) -> list[BindingType]:
    return [BY_ID[i].binding() for i in ids]


def scope_bindings(scope: str) -> list[BindingType]:
    return [k.binding() for k in KEYS if k.scope == scope]


def display(keys: str) -> str:
    names = {"slash": "/", "question_mark": "?", "escape": "esc", "pagedown": "pgdn", "pageup": "pgup"}
    return ", ".join(names.get(k.strip(), k.strip()) for k in keys.split(","))


def effective(keymap: dict[str, str]) -> list[tuple[Key, str]]:
    """Each binding with the keys that are live after the user's keymap."""
    return [(k, keymap.get(k.id, k.key)) for k in KEYS]


def unknown_ids(keymap: dict[str, str]) -> list[str]:
    return sorted(set(keymap) - set(BY_ID))


def markdown_table() -> str:
    """The keys table for the README (``python -m rawrag_tui.tui.keys``)."""
    rows = ["| Key | Action | Where | Binding id |", "|---|---|---|---|"]
    rows += [f"| `{display(k.key)}` | {k.description} | {k.scope} | `{k.id}` |" for k in KEYS]
    rows.append("| `enter` | Open the highlighted conversation, hit or citation; "
                "run the box's search, question or import | everywhere | (Textual) |")
    rows.append("| `ctrl+p` | Command palette (every action) | everywhere | (Textual) |")
    rows.append("| `tab` / `shift+tab` | Next / previous pane | everywhere | (Textual) |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
