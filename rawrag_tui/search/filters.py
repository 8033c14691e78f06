"""Search filters: conversations, a source and a date range.

A filtered search keeps every candidate through the pipeline and cuts to
``limit`` after filtering, so a filter never empties a result that the
unfiltered recall would have had matches for. Dates are inclusive
``YYYY-MM-DD`` days, compared with the messages' own dates.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import date

from ..errors import UserError
from ..storage.store import Store
from .types import Hit


def day_bound(value: str | None, name: str) -> str | None:
    """A YYYY-MM-DD filter bound, checked, or None."""
    if value is None or value == "":
        return None
    try:
        return date.fromisoformat(value[:10]).isoformat()
    except ValueError:
        raise UserError(f"{name}: {value!r} is not a date (YYYY-MM-DD)") from None


@dataclass(frozen=True)
class SearchFilters:
    #: Conversation ids a hit must be in (None: any).
    conversations: frozenset[int] | None = None
    since: str | None = None
    until: str | None = None

    @classmethod
    def checked(cls, store: Store, conversation_ids: Collection[int] | None, source_id: int | None,
                since: str | None, until: str | None) -> SearchFilters:
        """The filters, each checked (one UserError line for a bad date or an unknown source)."""
        first, last = day_bound(since, "since"), day_bound(until, "until")
        if first and last and first > last:
            raise UserError(f"since {first} is after until {last}")
        allowed: set[int] | None = None
        if conversation_ids is not None:
            allowed = {int(c) for c in conversation_ids}
        if source_id is not None:
            if not any(s["id"] == source_id for s in store.sources()):
                raise UserError(f"no source with id {source_id}")
            in_source = {c["id"] for c in store.conversations(source_id)}
            allowed = in_source if allowed is None else allowed & in_source
        return cls(None if allowed is None else frozenset(allowed), first, last)

    def passes(self, hit: Hit) -> bool:
        if self.conversations is not None and hit.conversation_id not in self.conversations:
            return False
        if not (self.since or self.until):
            return True
        days = [m.timestamp[:10] for m in hit.messages if m.timestamp]
        return any((not self.since or d >= self.since) and (not self.until or d <= self.until) for d in days)

    def keep(self, hits: Sequence[Hit], limit: int) -> list[Hit]:
        """The first ``limit`` hits that pass, ranked again from 1."""
        kept = [h for h in hits if self.passes(h)]
        return [replace(h, rank=rank) for rank, h in enumerate(kept[:limit], start=1)]
