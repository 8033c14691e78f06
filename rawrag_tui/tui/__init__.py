"""The terminal app (Textual). The only package that imports textual.

Screens and widgets call the :class:`rawrag_tui.memory.Memory` facade from
thread workers; they hold no pipeline logic of their own.
"""
