"""LongMemEval as a benchmark: every question brings its own haystack.

A question's ``haystack_sessions`` (lists of ``{role, content, has_answer}``)
become one conversation per session, dated by ``haystack_dates``
(``2023/05/20 (Sat) 02:21``, local time), with message ids
``{session_id}:{turn}``. They are written in the product's own JSON-lines
import format and imported into a store of that question alone, so retrieval
sees exactly the question's haystack.

Coverage has two levels: *session* (every ``answer_session_ids`` session has
a retrieved message) and *turn* (every ``has_answer`` turn is retrieved).
Questions whose id ends in ``_abs`` are abstention questions: the history
does not hold the answer, so they have no coverage and, with the reader, are
right when the answer declines.

This loader lives here, not among the importers: it is a benchmark file, not
an export anyone has of their own history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..memory import Memory
from ..search.types import EvidenceMessage
from .runner import Haystack, Question

DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"
LEVELS = ("session", "turn")
PRIMARY = "session"
TYPES = ("single-session-user", "single-session-assistant", "single-session-preference", "multi-session",
         "temporal-reasoning", "knowledge-update")
ABSTENTION_GROUP = "abstention"


def parse_date(text: str) -> datetime:
    return datetime.strptime(text.strip(), DATE_FORMAT)


def is_abstention(question_id: str) -> bool:
    return question_id.endswith("_abs")


def turn_id(session_id: str, turn: int) -> str:
    return f"{session_id}:{turn}"


def session_of(external_id: str) -> str:
    return external_id.rsplit(":", 1)[0]


class _Bad(Exception):
    pass


def _check(entry: Any, index: int) -> None:
    if not isinstance(entry, dict):
        raise _Bad(f"[{index}]: expected an object")
    for key in ("question_id", "question", "haystack_sessions", "haystack_session_ids", "haystack_dates"):
        if key not in entry:
            raise _Bad(f"[{index}]: missing {key!r}")
    sessions, ids, dates = entry["haystack_sessions"], entry["haystack_session_ids"], entry["haystack_dates"]
    if not (isinstance(sessions, list) and isinstance(ids, list) and isinstance(dates, list)):
        raise _Bad(f"[{index}]: haystack_sessions, haystack_session_ids and haystack_dates must be lists")
    if not len(sessions) == len(ids) == len(dates):
        raise _Bad(f"[{index}] ({entry['question_id']}): haystack lists differ in length "
                   f"({len(sessions)} sessions, {len(ids)} ids, {len(dates)} dates)")
    for s, session in enumerate(sessions):
        if not isinstance(session, list) or not all(
                isinstance(t, dict) and isinstance(t.get("role"), str) and isinstance(t.get("content"), str)
                for t in session):
            raise _Bad(f"[{index}].haystack_sessions[{s}]: turns must be objects with string role and content")
        try:
            parse_date(str(dates[s]))
        except ValueError:
            raise _Bad(f"[{index}].haystack_dates[{s}]: unreadable date {dates[s]!r}") from None


def haystack_rows(entry: dict) -> list[dict]:
    """The question's haystack as rows of rawrag's JSON-lines import format."""
    rows = []
    for session, session_id, date in zip(entry["haystack_sessions"], entry["haystack_session_ids"],
                                         entry["haystack_dates"]):
        when = parse_date(date).isoformat()
        for turn, message in enumerate(session):
            rows.append({
                "conversation": str(session_id), "title": f"session {session_id}", "id": turn_id(str(session_id), turn),
                "speaker": message["role"],
                "role": message["role"] if message["role"] in ("user", "assistant") else "other",
                "text": message["content"], "timestamp": when,
            })
    return rows


def gold_of(entry: dict) -> dict[str, frozenset[str]]:
    turns = {
        turn_id(str(session_id), turn)
        for session, session_id in zip(entry["haystack_sessions"], entry["haystack_session_ids"])
        for turn, message in enumerate(session) if message.get("has_answer") is True
    }
    return {"session": frozenset(str(s) for s in entry.get("answer_session_ids") or ()), "turn": frozenset(turns)}


def _writer(entry: dict):
    def write(home: Path) -> Path:
        path = home / "haystack.jsonl"
        data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in haystack_rows(entry)).encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            path.chmod(0o600)
        return path

    return write


def _retrieved(mem: Memory, messages: Sequence[EvidenceMessage]) -> dict[str, set[str]]:
    turns = {m.external_id for m in messages}
    return {"turn": turns, "session": {session_of(t) for t in turns}}


def question_date(entry: dict) -> str | None:
    try:
        return parse_date(str(entry.get("question_date", ""))).date().isoformat()
    except ValueError:
        return None


def load(path: str | Path) -> list[Haystack]:
    """One haystack (and one question) per entry of a LongMemEval file."""
    path = Path(path)
    try:
        data = json.loads(path.read_bytes())
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(data, list) or not data:
        raise UserError(f"{path}: not a LongMemEval file: expected a non-empty list of questions")
    haystacks = []
    for index, entry in enumerate(data):
        try:
            _check(entry, index)
        except _Bad as exc:
            raise UserError(f"{path}: not a LongMemEval file: {exc}") from None
        qid = str(entry["question_id"])
        abstain = is_abstention(qid)
        question = Question(
            id=qid,
            group=ABSTENTION_GROUP if abstain else str(entry.get("question_type", "unknown")),
            text=str(entry["question"]),
            gold={} if abstain else gold_of(entry),
            answer=entry.get("answer"),
            category=4,  # plain token F1 (LongMemEval's own metric is an LLM judge)
            abstention=abstain,
            date=question_date(entry),
        )
        haystacks.append(Haystack(qid, "jsonl", _writer(entry), [question], _retrieved))
    return haystacks
