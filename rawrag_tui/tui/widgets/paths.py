"""Filesystem completion for the import path box."""

from __future__ import annotations

import os
from pathlib import Path

from textual.suggester import Suggester
from textual.widgets import Input

from .. import keys


class PathSuggester(Suggester):
    """Suggests the first entry of the typed folder that starts with what follows the last slash.

    Folders get a trailing slash so the next completion can continue into them.
    """

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)

    async def get_suggestion(self, value: str) -> str | None:
        return suggest_path(value)


def suggest_path(value: str) -> str | None:
    if not value:
        return None
    expanded = os.path.expanduser(value)
    folder, _, stem = expanded.rpartition(os.sep)
    base = Path(folder or (os.sep if expanded.startswith(os.sep) else "."))
    try:
        names = sorted(e.name for e in os.scandir(base) if e.name.startswith(stem) and not (
            e.name.startswith(".") and not stem.startswith(".")))
    except OSError:
        return None
    for name in names:
        if name == stem:
            if (base / name).is_dir() and not value.endswith(os.sep):
                return value + os.sep  # a whole folder name: continue into it
            continue
        completed = name + (os.sep if (base / name).is_dir() else "")
        return value[: len(value) - len(stem)] + completed
    return None


class PathInput(Input):
    """An Input where tab takes the path completion (and moves on when there is none)."""

    BINDINGS = keys.bindings("import.complete")

    def __init__(self, **kwargs):
        super().__init__(suggester=PathSuggester(), **kwargs)

    def action_complete(self) -> None:
        suggestion = self._suggestion  # Textual keeps the live suggestion here
        if suggestion and len(suggestion) > len(self.value) and self.cursor_at_end:
            self.value = suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()
