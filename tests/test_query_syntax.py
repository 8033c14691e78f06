"""The search box's filter terms: one parser (toolkit.parse_query) that every face can hand a line to."""

from __future__ import annotations

import pytest

from rawrag_tui import toolkit
from rawrag_tui.search.types import Filters


def test_the_issue_line_splits_into_words_and_filters():
    parsed = toolkit.parse_query("meetup after:2016-01-01 before:2016-06 from:Neeraj in:#general source:slack")
    assert parsed.words == "meetup"
    assert parsed.filters == Filters(after="2016-01-01", before="2016-06", speakers=("Neeraj",),
                                     conversation="general", source="slack")
    assert [t.typed for t in parsed.terms] == ["after:2016-01-01", "before:2016-06", "from:Neeraj", "in:#general",
                                               "source:slack"]


@pytest.mark.parametrize("line, words, filters", [
    ('wedding from:"Maya Lopez" from:ben', "wedding", Filters(speakers=("Maya Lopez", "ben"))),
    ("FROM:Ana Kind:group lunch", "lunch", Filters(speakers=("Ana",), kind="group")),
    ("after:2015 after:30d trip", "trip", Filters(after="30d")),  # the last one typed wins
    ('in:"Book club" Ishiguro', "Ishiguro", Filters(conversation="Book club")),
    ("meet at 10:30 see http://x.org/a:b", "meet at 10:30 see http://x.org/a:b", Filters()),
    ("note: bring snacks", "note: bring snacks", Filters()),  # an unknown key is a word
    ("passport from:", "passport", Filters()),  # a term still being typed filters nothing
    ('trip from:"Maya', "trip", Filters(speakers=("Maya",))),  # an unclosed quote runs to the end
])
def test_terms_words_and_what_is_not_a_term(line, words, filters):
    parsed = toolkit.parse_query(line)
    assert (parsed.words, parsed.filters) == (words, filters)


def test_removing_a_term_keeps_the_rest_of_the_line():
    parsed = toolkit.parse_query('lisbon from:Ana in:"Lisbon trip" after:2026-03')
    [_, conversation, _] = parsed.terms
    rest = parsed.without(conversation)
    assert rest == "lisbon from:Ana after:2026-03"
    assert toolkit.parse_query(rest).filters == Filters(after="2026-03", speakers=("Ana",))


def test_the_parsed_filters_are_checked_by_the_store_like_the_cli_flags(open_memory, tmp_path):
    from tests.tui_fixtures import write_fixture

    mem = open_memory()
    mem.import_path(write_fixture(tmp_path / "exports"), "jsonl")
    parsed = toolkit.parse_query("passport from:ana after:2026-03")
    result = mem.search(parsed.words, mode="lexical", filters=parsed.filters)
    shown = [m for h in result.hits for m in h.messages]
    assert shown and all(m.timestamp >= "2026-03" for m in shown)
    assert any(m.speaker == "Ana" and "passport" in m.text for m in shown)
    from rawrag_tui.errors import UserError

    with pytest.raises(UserError, match="no speaker named 'Zed'"):
        mem.search("passport", filters=toolkit.parse_query("from:Zed").filters)
