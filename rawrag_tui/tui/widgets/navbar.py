"""The one-line bar on top: where you are and the keys to go elsewhere."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.widgets import Static

from .. import keys

PLACES = (("library", "app.library", "Library"), ("search", "app.search", "Search"),
          ("ask", "app.ask", "Ask"), ("import", "app.import", "Import"), ("status", "app.status", "Status"))


class NavBar(Static):
    COMPONENT_CLASSES: ClassVar[set[str]] = {"navbar--brand", "navbar--current", "navbar--hint"}

    def __init__(self, current: str, **kwargs):
        super().__init__(**kwargs)
        self.current = current

    def on_mount(self) -> None:
        keymap = getattr(self.app, "user_keymap", {})
        style_of = self.get_component_rich_style
        text = Text(" rawrag ", style=style_of("navbar--brand"))
        for mode, binding_id, label in PLACES:
            key = keys.display(keymap.get(binding_id, keys.BY_ID[binding_id].key)).split(",")[0]
            style = style_of("navbar--current") if mode == self.current else ""
            text.append(" ")
            text.append(f" {key} {label} ", style=style)
        text.append("   ? keys", style=style_of("navbar--hint"))
        self.update(text)
