"""JSON loading whose errors say where: line and column, or the key path."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..errors import ImportFormatError


def loads(data: bytes, path: object, fmt: str) -> Any:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ImportFormatError(path, fmt, "not UTF-8 text", f"byte {exc.start}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportFormatError(
            path, fmt, f"invalid JSON: {exc.msg}", f"line {exc.lineno}, column {exc.colno}"
        ) from None
    except RecursionError:
        raise ImportFormatError(path, fmt, "JSON nested too deeply") from None


def parse_time(value: Any) -> datetime | None:
    """ISO-8601 (aware if it has a zone, naive = local) or Unix seconds (UTC).

    Raises ValueError on anything else; callers turn that into an
    ImportFormatError with the location.
    """
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a time: {value!r}")
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(float(value), tz=UTC)
    if isinstance(value, str):
        text = value.strip()
        try:
            return datetime.fromtimestamp(float(text), tz=UTC)
        except ValueError:
            pass
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    raise ValueError(f"not a time: {value!r}")
