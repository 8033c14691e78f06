"""The wide meaning anchors (``reader.anchors = "wide"``, answer/selection.py):
the statement that answers, long and far in meaning from a short question,
reaches the evidence from the asked person's chat, where the close anchors
leave it out. The bundled embedder, no reader."""

from __future__ import annotations

import numpy as np

from rawrag_tui.answer import selection
from rawrag_tui.answer.evidence import EvidenceViews
from rawrag_tui.answer.selection import select_evidence
from rawrag_tui.search.types import Hit
from tests.test_later_reading import ListHistory
from tests.test_timeline import msg

NEW_JOB = ("Nope! Last day there was the 13th. I'm the physio at Red Kite Cricket Academy now, "
           "taping the ankles of fifteen-year-old fast bowlers.")
KABIR = [
    msg(1, "Mad busy. Banyan Physio Clinic has one receptionist and about four hundred patients.",
        "2025-03-01T10:00:00", "Kabir"),
    msg(2, "How's work otherwise?", "2025-03-01T10:01:00", "Ishani"),
    msg(3, "Same as ever. Did Papa call you?", "2025-03-01T10:02:00", "Kabir"),
    msg(4, "New place?? Hold on, are you still at Banyan?", "2025-06-22T19:30:00", "Ishani"),
    msg(5, NEW_JOB, "2025-06-22T19:31:00", "Kabir"),
    msg(6, "KABIR. Why am I hearing this on a Sunday night by text?", "2025-06-22T19:32:00", "Ishani"),
]
# Another chat's short lines about work, closer to the question than the statement.
OTHERS = [
    msg(11, "sooo. work news. I switched jobs!", "2025-06-29T10:00:00", "Thandi", 2),
    msg(12, "Seal pups! That's what you always talked about.", "2025-06-29T10:01:00", "Morag", 2),
    msg(13, "How's the new job?", "2025-07-10T10:00:00", "Morag", 2),
    msg(14, "Work is work. The commute is fine.", "2025-07-10T10:01:00", "Thandi", 2),
    msg(15, "Where do you work these days?", "2025-07-12T10:00:00", "Morag", 2),
    msg(16, "What's the job like?", "2025-07-12T10:01:00", "Thandi", 2),
]
HITS = [Hit(2, 2, "chat 2", 1, "", messages=OTHERS), Hit(1, 1, "chat 1", 2, "", messages=KABIR)]
QUESTION = "Where does Kabir work now?"


def words(text: str) -> int:
    return len(text.split())


def test_the_new_job_reaches_the_evidence_only_with_wide_anchors(embedder, monkeypatch):
    # Without the asked person's change lines, which bring his "Last day there was the 13th" line either way.
    monkeypatch.setattr(selection, "CHANGE_LINES", 0)
    history = ListHistory(embedder, KABIR + OTHERS)
    close = select_evidence(HITS, QUESTION, 120, words, EvidenceViews(), history)
    wide = select_evidence(HITS, QUESTION, 120, words, EvidenceViews(), history, wide=True)
    assert "Red Kite" not in close.text
    assert "Red Kite" in wide.text
    # Both read only Kabir's chat: the other chat's work lines are not his.
    assert {m.conversation_id for m in close.messages} == {m.conversation_id for m in wide.messages} == {1}


def test_the_length_prior_is_what_ranks_the_statement_among_the_closest(embedder, monkeypatch):
    history = ListHistory(embedder, KABIR + OTHERS)
    closeness = history.embed(KABIR, speaker=False) @ history.embed_question("Where does work now?")
    assert list(np.argsort(-closeness)).index(4) > 1  # by closeness alone, not among the two closest
    monkeypatch.setattr(selection, "MEANING_ANCHORS", 2)
    monkeypatch.setattr(selection, "CHANGE_LINES", 0)  # as above
    wide = select_evidence(HITS, QUESTION, 120, words, EvidenceViews(), history, wide=True)
    assert "Red Kite" in wide.text
    monkeypatch.setattr(selection, "LENGTH_PRIOR", 0.0)
    without = select_evidence(HITS, QUESTION, 120, words, EvidenceViews(), history, wide=True)
    assert "Red Kite" not in without.text


def test_a_question_naming_no_one_takes_wide_anchors_from_every_chat(embedder):
    history = ListHistory(embedder, KABIR + OTHERS)
    wide = select_evidence(HITS, "Where does someone work now?", 200, words, EvidenceViews(), history, wide=True)
    assert {m.conversation_id for m in wide.messages} == {1, 2}
