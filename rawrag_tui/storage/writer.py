"""One writer at a time: SQLite's busy error as one line a person can act on.

The app, the command line and an MCP server may share a home, and only one
of them can write at a time; the others wait out the busy timeout, then say so.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from ..errors import UserError

#: What a writer hears when another process holds the home's write lock past the busy timeout.
BUSY = "another rawrag is importing into this home; try again when it finishes"

_F = TypeVar("_F", bound=Callable[..., Any])


def writer(method: _F) -> _F:
    """Wrap a method that writes: a busy or locked store raises :data:`BUSY` as a UserError."""

    @functools.wraps(method)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        import apsw

        try:
            return method(*args, **kwargs)
        except (apsw.BusyError, apsw.LockedError):
            raise UserError(BUSY) from None

    return cast(_F, wrapped)
