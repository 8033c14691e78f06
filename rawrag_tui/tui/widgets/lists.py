"""Lists and tables that also move with j/k (ids list.down / list.up)."""

from __future__ import annotations

from textual.widgets import DataTable, OptionList

from .. import keys


class VimOptionList(OptionList):
    BINDINGS = keys.bindings("list.down", "list.up")


class VimDataTable(DataTable):
    BINDINGS = keys.bindings("list.down", "list.up")
