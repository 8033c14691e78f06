"""How a home's settings shape an answer: the one reading of ``[reader]`` for ``answer_question``."""

from __future__ import annotations

from typing import Any

from ..settings import Settings


def prompt_style(settings: Settings) -> str:
    """``reader.prompt``; "auto" is "plain" for the bundled reader (too small to
    cite), else "cited" (also for a server the user runs: a model they chose to read)."""
    style = settings.reader.prompt
    if style != "auto":
        return style
    return "plain" if settings.models.profile == "bundled" and not settings.reader.endpoint else "cited"


def answer_options(settings: Settings) -> dict[str, Any]:
    """``answer_question``'s keyword arguments for ``settings``."""
    from ..models.registry import evidence_ceiling

    r = settings.reader
    return {"answer_tokens": r.answer_tokens, "prompt_style": prompt_style(settings),
            "evidence_tokens": evidence_ceiling(settings), "select": r.select,
            "first_token_seconds": r.first_token_seconds, "min_evidence_tokens": r.min_evidence_tokens,
            "checks": settings.answer.checks}
