"""LoCoMo as a benchmark: each sample is one haystack, its QA the questions.

Categories 1-4 are scored (5, adversarial, has no answer and is left out, as
in LoCoMo's own evaluation). Gold evidence is the ``evidence`` list of
dialogue ids, parsed with ``D\\d+:\\d+`` so malformed entries such as
``'D8:6; D9:17'`` count both ids; a question with no parseable id is kept
for answers but left out of coverage (and counted).

Each sample is written to its own file in its store and imported with the
product's LoCoMo importer, so the store holds exactly one conversation and
evidence ids are matched within it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from .. import toolkit
from ..errors import ImportFormatError, UserError
from ..memory import Memory
from ..search.types import EvidenceMessage
from .coverage import parse_locomo_evidence
from .runner import Haystack, Question

CATEGORIES = {1: "1 multi-hop", 2: "2 temporal", 3: "3 open-domain", 4: "4 single-hop"}
LEVEL = "evidence"
_DATE_KEY = re.compile(r"^session_\d+_date_time$")


def last_session_date(conversation: dict) -> str | None:
    """The day of the last session that has turns, ISO: LoCoMo's questions are asked after it."""
    days = []
    for key, value in conversation.items():
        held = conversation.get(key.removesuffix("_date_time"))
        if _DATE_KEY.match(key) and isinstance(value, str) and value.strip() and isinstance(held, list) and held:
            try:
                days.append(toolkit.locomo_session_day(value))
            except ValueError:
                continue
    return max(days) if days else None


def questions_of(sample: dict, sample_id: str) -> list[Question]:
    """The scored questions (categories 1-4) of one sample, in file order."""
    date = last_session_date(sample.get("conversation") or {})
    out = []
    for index, qa in enumerate(sample.get("qa") or []):
        if not isinstance(qa, dict) or qa.get("category") not in CATEGORIES or not isinstance(qa.get("question"), str):
            continue
        out.append(Question(
            id=f"{sample_id}#{index}",
            group=CATEGORIES[qa["category"]],
            text=qa["question"],
            gold={LEVEL: parse_locomo_evidence(qa.get("evidence"))},
            answer=qa.get("answer"),
            category=qa["category"],
            date=date,
        ))
    return out


def _writer(sample: dict):
    def write(home: Path) -> Path:
        path = home / "locomo-sample.json"
        data = json.dumps([sample], ensure_ascii=False).encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            path.chmod(0o600)
        return path

    return write


def _retrieved(sample_id: str):
    def retrieved(mem: Memory, messages: Sequence[EvidenceMessage]) -> dict[str, set[str]]:
        conversation = mem.conversation_id("locomo", sample_id)
        return {LEVEL: {m.external_id for m in messages if m.conversation_id == conversation}}

    return retrieved


def load(path: str | Path) -> list[Haystack]:
    """One haystack per sample of a LoCoMo file."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: no such file")
    samples = toolkit.locomo_samples(path)  # the importer's checks, before any store is touched
    for index, sample in enumerate(samples):
        if not isinstance(sample.get("qa", []), list):
            raise ImportFormatError(path, "locomo", "'qa' must be a list", f"[{index}].qa")
    haystacks = []
    for index, sample in enumerate(samples):
        sample_id = str(sample.get("sample_id", index))
        conversation = sample["conversation"]
        ids = frozenset(t["dia_id"] for key, turns in conversation.items()
                        if key.startswith("session_") and isinstance(turns, list) for t in turns)
        haystacks.append(Haystack(sample_id, "locomo", _writer(sample), questions_of(sample, sample_id),
                                  _retrieved(sample_id), ids))
    if not any(h.questions for h in haystacks):
        raise UserError(f"{path}: no LoCoMo questions of categories 1-4")
    return haystacks


def _listed(ids: list[str]) -> str:
    return ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else "")


def notes(haystacks: Sequence[Haystack]) -> list[str]:
    """What the reader of the figures must know about the gold evidence."""
    out = []
    missing = [q.id for h in haystacks for q in h.questions if not q.gold[LEVEL]]
    if missing:
        out.append(f"{len(missing)} question(s) have no parseable evidence id and are left out of coverage: "
                   + _listed(missing))
    dangling = [f"{q.id} {i}" for h in haystacks for q in h.questions for i in sorted(q.gold[LEVEL] - h.message_ids)]
    if dangling:
        out.append(f"{len(dangling)} gold evidence id(s) name no message of their sample, so those questions "
                   "can never be fully covered: " + _listed(dangling))
    return out
