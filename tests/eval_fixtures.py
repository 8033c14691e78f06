"""Small hand-made benchmark files whose right answers are known by construction.

Filler turns each talk about one made-up topic word, so a lexical search for
a fact's rare words finds exactly the window holding that fact, and the
filler pushes facts in different sessions into different 256-token windows.
"""

from __future__ import annotations

import json
from pathlib import Path

TOPICS = (
    "gardening cycling pottery chess baking kayaking origami juggling fencing sailing knitting archery "
    "birdwatching calligraphy skateboarding woodworking astronomy beekeeping canoeing embroidery falconry "
    "geocaching hiking ikebana judo karaoke lacrosse macrame netball orienteering"
).split()


def filler(speakers: tuple[str, str], start: int, count: int, session: int) -> list[dict]:
    turns = []
    for i in range(count):
        topic = TOPICS[(start + i) % len(TOPICS)]
        turns.append({
            "speaker": speakers[i % 2],
            "dia_id": f"D{session}:{i + 1}",
            "text": f"Lately I keep thinking about {topic}; the {topic} club meets on weekdays and the "
                    f"{topic} people there are friendly enough, so maybe I will go more often.",
        })
    return turns


def locomo_samples() -> list[dict]:
    """Two samples that reuse the same dialogue ids (ids are per sample)."""
    a = ("Alice", "Bob")
    s1 = filler(a, 0, 10, 1)
    s1[1] = {"speaker": "Alice", "dia_id": "D1:2", "text": "I adopted a ferret called Pickles last weekend!",
             "blip_caption": "a photo of a small ferret"}
    s2 = filler(a, 10, 10, 2)
    s3 = filler(a, 20, 10, 3)
    s3[4] = {"speaker": "Bob", "dia_id": "D3:5", "text": "My sister Marguerite moved to Lisbon in March."}
    sample1 = {
        "sample_id": "fx-1",
        "conversation": {
            "speaker_a": "Alice", "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": s1,
            "session_2_date_time": "10:00 am on 20 May, 2023", "session_2": s2,
            "session_3_date_time": "7:30 pm on 2 June, 2023", "session_3": s3,
            "session_4_date_time": "9:00 am on 9 June, 2023",  # a date with no session
        },
        "qa": [
            {"question": "What is the name of the ferret Alice adopted?", "answer": "Pickles",
             "evidence": ["D1:2"], "category": 4},
            {"question": "Which city did Marguerite move to, and what is the ferret called?",
             "answer": "Lisbon, Pickles", "evidence": ["D1:2; D3:5"], "category": 1},
            {"question": "When did Marguerite move to Lisbon?", "answer": "March 2023",
             "evidence": ["D3:5"], "category": 2},
            {"question": "Would Alice enjoy a ferret show?", "answer": "Likely yes",
             "evidence": ["see above"], "category": 3},
            {"question": "What did Bob say about his ferret?", "evidence": ["D1:2"], "category": 5,
             "adversarial_answer": "nothing"},
        ],
    }
    b = ("Carol", "Dan")
    t1 = filler(b, 5, 10, 1)
    t1[1] = {"speaker": "Carol", "dia_id": "D1:2", "text": "We painted the kitchen a deep emerald green."}
    sample2 = {
        "sample_id": "fx-2",
        "conversation": {"speaker_a": "Carol", "speaker_b": "Dan",
                         "session_1_date_time": "3:00 pm on 1 July, 2023", "session_1": t1},
        "qa": [{"question": "What colour did Carol paint the kitchen?", "answer": "emerald green",
                "evidence": ["D1:2"], "category": 4}],
    }
    return [sample1, sample2]


def write_locomo(path: Path) -> Path:
    path.write_text(json.dumps(locomo_samples()), encoding="utf-8")
    return path


def _session(topic_start: int, count: int, facts: dict[int, str], answers: bool = True) -> list[dict]:
    turns = []
    for i in range(count):
        topic = TOPICS[(topic_start + i) % len(TOPICS)]
        role = "user" if i % 2 == 0 else "assistant"
        if i in facts:
            turns.append({"role": role, "content": facts[i], "has_answer": answers})
        else:
            turns.append({"role": role, "content": f"Tell me more about {topic}: the {topic} basics, "
                                                   f"{topic} equipment and how long {topic} takes to learn.",
                          "has_answer": False})
    return turns


def longmemeval_entries() -> list[dict]:
    """Three questions: one answer session, two answer sessions, and an abstention."""
    def haystack(first: bool, second: bool) -> dict:
        """has_answer marks the turns holding this question's answer, so it differs per question."""
        sessions = [
            _session(0, 8, {}),
            _session(8, 8, {2: "I bought a turquoise Vespa scooter yesterday."}, first),
            _session(16, 8, {}),
            _session(24, 8, {4: "My turquoise Vespa needed a new clutch after the trip to Siena."}, second),
        ]
        return {"haystack_sessions": sessions, "haystack_session_ids": ["s_a", "answer_v1", "s_c", "answer_v2"],
                "haystack_dates": ["2023/05/01 (Mon) 09:00", "2023/05/08 (Mon) 10:30", "2023/05/15 (Mon) 11:00",
                                   "2023/06/01 (Thu) 18:45"],
                "question_date": "2023/06/10 (Sat) 12:00"}

    return [
        {"question_id": "q-single", "question_type": "single-session-user",
         "question": "What colour is the Vespa scooter I bought?", "answer": "turquoise",
         "answer_session_ids": ["answer_v1"], **haystack(True, False)},
        {"question_id": "q-multi", "question_type": "multi-session",
         "question": "Where did I travel on my Vespa before the clutch was replaced, and what colour is it?",
         "answer": "Siena; turquoise", "answer_session_ids": ["answer_v1", "answer_v2"], **haystack(True, True)},
        {"question_id": "q-none_abs", "question_type": "single-session-user",
         "question": "What is the name of my pet parrot?", "answer": "You did not mention a parrot.",
         "answer_session_ids": [], **haystack(False, False)},
    ]


def write_longmemeval(path: Path) -> Path:
    path.write_text(json.dumps(longmemeval_entries()), encoding="utf-8")
    return path
