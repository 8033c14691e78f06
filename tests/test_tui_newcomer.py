"""The app where a newcomer stumbled: each numbered point of the app's review, driven through the pilot.

1 leaving the import screen keeps the work running; cancel is its own key and asks first.
2 embedding moves at least once a second (core: tests/test_embed_progress.py; here the app shows it).
3 search says embedding is under way, not "run rawrag index".
4 a hit's header names who wrote the matching message.
5 transcripts: day separators, consecutive messages of one person grouped.
6 "by meaning" labels; "top 15" for a capped list.
7 80x24 and 160 columns (tests/test_tui_snapshots.py).
8 typing in a box never fires a shortcut; esc then a letter is the shortcut.
9 no stale state: reader loaded, citations cleared, the previous import marked as such.
10 plurals, emptied sources, LaTeX, Keys once in the palette, Slack names.
11 Ask says how much the reader read, and shows all the search's evidence on a key.
"""

from __future__ import annotations

from rawrag_tui.answer.types import Answer


def test_the_budget_note_is_one_sentence_every_face_shows():
    answer = Answer("q", "a", evidence=[object()] * 4, cut_messages=113)  # type: ignore[list-item]
    assert answer.budget_note() == "read 4 of 117 messages; the rest did not fit the reader's budget"
    assert Answer("q", "a", dropped_windows=2).budget_note() == (
        "2 lower-ranked window(s) left out to fit the reader's context")
    assert Answer("q", "a").budget_note() == ""
