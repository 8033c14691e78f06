"""Search filters on a real store, in every mode: dates, speakers, source, conversation, kind.

The store: 40 team conversations about a project where Alice and Bob talk
(one window each), four of which Neeraj Kumar also wrote in, a family group
chat with José Núñez, an assistant chat; two imports (two sources). Filters
restrict both channels inside SQL, so a rare person's windows come back even
when the unfiltered recall is too shallow to reach them.
"""

from __future__ import annotations

import json
from datetime import date

import pytest

from rawrag_tui.errors import UserError
from rawrag_tui.search.filters import fold, match_speakers, period
from rawrag_tui.search.types import Filters

from .conftest import run_cli, write_jsonl

MODES = ("lexical", "dense", "hybrid")
RARE = (3, 11, 22, 35)  # the team conversations Neeraj wrote in


def team_rows() -> list[dict]:
    rows = []
    for c in range(40):
        day = f"2024-{1 + c % 12:02d}-{1 + c % 27:02d}"
        talk = [("Alice", "the project deadline moved again, the release review for the launch slips a week"),
                ("Bob", "fine, I will tell the client about the project plan and the new release date"),
                ("Alice", "and the budget for the project stays the same for now")]
        if c in RARE:
            talk.insert(1, ("Neeraj Kumar", "my part of the project is the release checklist for the launch"))
        for i, (who, text) in enumerate(talk):
            rows.append({"conversation": f"team-{c}", "title": f"Team sync {c}", "kind": "channel",
                         "id": f"t{c}-{i}", "speaker": who, "text": f"{text} ({c})",
                         "timestamp": f"{day}T09:{i:02d}:00Z"})
    return rows


def family_rows() -> list[dict]:
    said = [("2016-03-14T10:00:00Z", "José Núñez", "the project for the garden starts in spring"),
            ("2016-03-14T10:05:00Z", "Mum", "lovely, the garden project needs new tools"),
            ("2016-12-31T23:00:00Z", "José Núñez", "happy new year, the garden project is done"),
            ("2017-01-02T08:00:00Z", "Mum", "the garden looks great after the project")]
    rows = [{"conversation": "family", "title": "Family", "kind": "group", "id": f"f{i}", "speaker": who,
             "text": text, "timestamp": ts} for i, (ts, who, text) in enumerate(said)]
    rows.append({"conversation": "helper", "title": "Project help", "kind": "chat", "id": "h0", "speaker": "Me",
                 "text": "how do I plan a project release", "timestamp": "2025-05-05T12:00:00Z"})
    return rows


@pytest.fixture(scope="module")
def filtered_home(tmp_path_factory, embedder):
    from rawrag_tui.memory import Memory

    root = tmp_path_factory.mktemp("filters")
    home = root / "home"
    with Memory.open(home, embedder=embedder) as mem:
        mem.import_path(write_jsonl(root / "team.jsonl", team_rows()), "jsonl")
        mem.import_path(write_jsonl(root / "family.jsonl", family_rows()), "jsonl")
    return home


@pytest.fixture
def mem(filtered_home, open_memory):
    return open_memory(filtered_home)


def messages(result):
    return [m for h in result.hits for m in h.messages]


# -- dates -----------------------------------------------------------------------


def test_date_forms_name_whole_periods():
    today = date(2026, 3, 31)
    assert period("2016", "after", today) == (date(2016, 1, 1), date(2017, 1, 1))
    assert period("2016-03", "after", today) == (date(2016, 3, 1), date(2016, 4, 1))
    assert period("2016-12", "after", today) == (date(2016, 12, 1), date(2017, 1, 1))
    assert period("2016-03-14", "after", today) == (date(2016, 3, 14), date(2016, 3, 15))
    assert period("30d", "after", today) == (date(2026, 3, 1), date(2026, 3, 2))
    assert period("6m", "after", today) == (date(2025, 9, 30), date(2025, 10, 1))
    assert period("1m", "after", today)[0] == date(2026, 2, 28)  # no 31 February: the month's last day
    assert period("2w", "after", today)[0] == date(2026, 3, 17)
    assert period("1y", "after", today)[0] == date(2025, 3, 31)
    for bad in ("2016-13", "yesterday", "16", "2016-02-30", "6x"):
        with pytest.raises(UserError, match=r"^after: .* is not a date \(give 2016, 2016-03"):
            period(bad, "after", today)


@pytest.mark.parametrize("mode", MODES)
def test_after_and_before_include_the_period_they_name(mem, mode):
    result = mem.search("garden project", mode=mode, filters=Filters(after="2016", before="2016"))
    days = {m.timestamp[:10] for m in messages(result)}
    assert days and days <= {"2016-03-14", "2016-12-31"}
    assert "2016-12-31" in days or mode == "dense"  # up to the end of 31 December
    march = mem.search("garden project", mode=mode, filters=Filters(after="2016-03-14", before="2016-03"))
    assert {m.timestamp[:10] for m in messages(march)} == {"2016-03-14"}
    later = mem.search("garden project", mode=mode, filters=Filters(after="2017"))
    assert messages(later) and all(m.timestamp >= "2017" for m in messages(later))


def test_bounds_the_wrong_way_round_are_one_line(mem):
    with pytest.raises(UserError, match="after 2017-01-01 is later than before 2016-12-31"):
        mem.search("garden", filters=Filters(after="2017", before="2016"))


# -- speakers ----------------------------------------------------------------------


def test_names_match_as_people_type_them():
    names = ["Neeraj Kumar", "José Núñez", "Mum", "Neerajan"]
    assert match_speakers("neeraj", names) == ["Neeraj Kumar"]
    assert match_speakers("NEERAJ kumar", names) == ["Neeraj Kumar"]
    assert match_speakers("jose nunez", names) == ["José Núñez"]
    assert match_speakers("@José", names) == ["José Núñez"]
    assert match_speakers("kumar", names) == []
    assert fold("  José   NÚÑEZ ") == "jose nunez"


@pytest.mark.parametrize("mode", MODES)
def test_a_rare_person_returns_k_hits_when_k_exist(mem, mode):
    """Four windows hold Neeraj's messages among forty alike: a recall of 5 candidates, cut after
    the fact, would find few of them; filtered in SQL, all four come back, and only they."""
    result = mem.search("project budget client", mode=mode, limit=4, candidates=5,
                        filters=Filters(speakers=("neeraj",)))
    assert len(result.hits) == 4
    assert sorted(h.conversation for h in result.hits) == sorted(f"Team sync {c}" for c in RARE)
    for hit in result.hits:  # the person's message, with its neighbours as context
        speakers = [m.speaker for m in hit.messages]
        assert "Neeraj Kumar" in speakers and "Alice" in speakers
    unfiltered = mem.search("project budget client", mode=mode, limit=40, candidates=5)
    reached = [h for h in unfiltered.hits if any(m.speaker == "Neeraj Kumar" for m in h.messages)]
    assert len(reached) < 4  # the same recall, filtered after the fact, would come back short


@pytest.mark.parametrize("mode", MODES)
def test_speaker_with_accents_and_two_speakers(mem, mode):
    one = mem.search("garden project", mode=mode, filters=Filters(speakers=("jose",)))
    assert one.hits and all(h.conversation == "Family" for h in one.hits)
    both = mem.search("project release", mode=mode, limit=10, filters=Filters(speakers=("jose", "neeraj")))
    assert {h.conversation for h in both.hits} == {"Family"} | {f"Team sync {c}" for c in RARE}


def test_unknown_names_are_one_line_with_the_near_matches(mem):
    with pytest.raises(UserError) as speaker:
        mem.search("project", filters=Filters(speakers=("neeraz",)))
    assert str(speaker.value) == "no speaker named 'neeraz'; near: Neeraj Kumar"
    with pytest.raises(UserError) as source:
        mem.search("project", filters=Filters(source="tem.jsonl"))
    assert str(source.value).startswith("no source named 'tem.jsonl'; near: team.jsonl")
    with pytest.raises(UserError, match=r"^no conversation named 'famly'; near: Family$"):
        mem.search("project", filters=Filters(conversation="famly"))
    with pytest.raises(UserError, match=r"^kind: 'dm' is not one of chat, channel, group, agent$"):
        mem.search("project", filters=Filters(kind="dm"))


# -- source, conversation, kind, combined ----------------------------------------------


@pytest.mark.parametrize("mode", MODES)
def test_source_conversation_and_kind_alone(mem, mode):
    by_file = mem.search("project", mode=mode, limit=20, filters=Filters(source="family.jsonl"))
    assert by_file.hits and {h.conversation for h in by_file.hits} <= {"Family", "Project help"}
    by_id = mem.search("project", mode=mode, limit=20, filters=Filters(source="1"))
    assert by_id.hits and all(h.conversation.startswith("Team sync") for h in by_id.hits)
    one = mem.search("project", mode=mode, filters=Filters(conversation="team sync 7"))
    assert [h.conversation for h in one.hits] == ["Team sync 7"]
    assert [h.conversation for h in mem.search("project", mode=mode, filters=Filters(conversation="41")).hits] \
        == ["Family"]
    groups = mem.search("project", mode=mode, limit=20, filters=Filters(kind="group"))
    assert {h.conversation for h in groups.hits} == {"Family"}
    chats = mem.search("project", mode=mode, limit=20, filters=Filters(kind="chat"))
    assert {h.conversation for h in chats.hits} == {"Project help"}


@pytest.mark.parametrize("mode", MODES)
def test_filters_combined_show_only_the_messages_that_pass(mem, mode):
    result = mem.search("garden project", mode=mode, filters=Filters(
        after="2016-12", before="2017", speakers=("Mum",), source="family.jsonl", kind="group"))
    assert result.hits
    shown = messages(result)
    assert {m.timestamp[:10] for m in shown} <= {"2016-12-31", "2017-01-02"}  # 14 March is filtered out
    assert "2017-01-02" in {m.timestamp[:10] for m in shown}
    assert any(m.speaker == "José Núñez" for m in shown)  # a neighbour, as context


def test_a_filter_that_matches_nothing_says_so(mem):
    result = mem.search("project", filters=Filters(speakers=("neeraj",), after="2030"))
    assert result.hits == [] and result.summary() == (
        "no message passes the filters (after 2030-01-01, speaker Neeraj Kumar)")


def test_cli_filters_errors_and_nothing(filtered_home):
    code, out, err = run_cli("search", "project release", "--speaker", "neeraj", "--limit", "4", "--json",
                             home=filtered_home)
    assert code == 0, err
    assert len(json.loads(out)["hits"]) == 4
    code, out, err = run_cli("search", "project", "--speaker", "neeraz", home=filtered_home)
    assert code == 1 and err.strip() == "rawrag: error: no speaker named 'neeraz'; near: Neeraj Kumar"
    code, out, err = run_cli("search", "project", "--after", "2030", "--json", home=filtered_home)
    assert code == 0 and json.loads(out)["hits"] == []
    assert err.strip() == "no message passes the filters (after 2030-01-01)"
    code, out, err = run_cli("search", "project", "--after", "2030", home=filtered_home)
    assert code == 0 and out.strip() == "no message passes the filters (after 2030-01-01)"


def test_dense_over_many_allowed_windows_uses_the_binary_index_and_agrees(mem):
    """Above ``exact_below`` allowed windows the binary KNN finds the candidates and the filter
    is applied in SQL; here it is asked for every vector, so it must agree with the exact scan."""
    import dataclasses

    filters = Filters(source="team.jsonl")
    exact = [h.window_id for h in mem.search("release checklist", mode="dense", limit=8, filters=filters).hits]
    mem.settings = dataclasses.replace(
        mem.settings, retrieval=dataclasses.replace(mem.settings.retrieval, exact_below=5))
    binary = [h.window_id for h in mem.search("release checklist", mode="dense", limit=8, filters=filters).hits]
    assert len(exact) == 8 and binary == exact
