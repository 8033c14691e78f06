"""How a home's settings shape an answer: the one reading of ``[reader]`` for ``answer_question``."""

from __future__ import annotations

from typing import Any

from ..settings import Settings


def _profile_reads_bundled(settings: Settings) -> bool | None:
    """Whether the profile's reader is the bundled 0.5B one (``bundled``,
    ``multilingual``: it changes the embedder only); None for a profile this
    build does not know (reported where the models load)."""
    from ..models.registry import BUNDLED, get_profile

    try:
        reader = get_profile(settings.models.profile).roles.get("reader")
    except Exception:  # noqa: BLE001
        return None
    return reader == BUNDLED.roles["reader"]


def prompt_style(settings: Settings) -> str:
    """``reader.prompt``; "auto" is "plain" for the bundled 0.5B reader (too
    small to cite: asked to, it answers a bare "[3]") in every profile that
    reads with it (``multilingual`` too; a GGUF
    of the user's in ``models.reader_model`` stays with the profile's style,
    as measured), else "cited" (a server the user runs, ``reader.endpoint``:
    a model they chose to read)."""
    style = settings.reader.prompt
    if style != "auto":
        return style
    if settings.reader.endpoint:
        return "cited"
    return "plain" if _profile_reads_bundled(settings) else "cited"


#: The values ``reader.anchors`` takes (settings.py).
ANCHORS = ("auto", "close", "wide")


def anchors(settings: Settings) -> str:
    """``reader.anchors``; "auto" is "close" for the bundled 0.5B reader (the
    profile's, with no GGUF of the user's and no server; an unknown profile
    too) and "wide" for any other."""
    from ..errors import UserError

    chosen = settings.reader.anchors
    if chosen not in ANCHORS:
        raise UserError(f"setting reader.anchors: {chosen!r} is none of {', '.join(ANCHORS)}")
    if chosen != "auto":
        return chosen
    return "wide" if _reader_brought(settings) else "close"


#: The values ``reader.hints`` takes (settings.py).
HINTS = ("auto", "on", "off")


def hints(settings: Settings) -> bool:
    """``reader.hints``: whether the reader's prompt gives a question the words
    its language module adds for the small reader (``Language.reader_hints``:
    "Where does Thandi work now (which employer)?"). "auto" is on for the
    bundled 0.5B reader, which answered a town without them, and off for a
    reader the user brings: the 1.5B Coder lost a right answer with them and
    gained none (docs/answers.md)."""
    from ..errors import UserError

    chosen = settings.reader.hints
    if chosen not in HINTS:
        raise UserError(f"setting reader.hints: {chosen!r} is none of {', '.join(HINTS)}")
    if chosen != "auto":
        return chosen == "on"
    return not _reader_brought(settings)


def _reader_brought(settings: Settings) -> bool:
    """Whether the reader is one the user brings (``models.reader_model``,
    ``reader.endpoint``, a profile whose reader is not the bundled 0.5B);
    an unknown profile counts as the bundled reader."""
    if settings.reader.endpoint or settings.models.reader_model:
        return True
    return _profile_reads_bundled(settings) is False


def answer_options(settings: Settings) -> dict[str, Any]:
    """``answer_question``'s keyword arguments for ``settings``."""
    from ..models.registry import evidence_ceiling

    r = settings.reader
    return {"answer_tokens": r.answer_tokens, "prompt_style": prompt_style(settings),
            "evidence_tokens": evidence_ceiling(settings), "select": r.select, "anchors": anchors(settings),
            "hints": hints(settings),
            "first_token_seconds": r.first_token_seconds, "min_evidence_tokens": r.min_evidence_tokens,
            "checks": settings.answer.checks}
