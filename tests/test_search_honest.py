"""Honest result lists: when no message holds the query's words, say so, and show
only the nearest-by-meaning windows above the measured floor, under their own label."""

import json

import pytest

from rawrag_tui.demo import demo_path
from rawrag_tui.settings import RetrievalSettings

from .conftest import run_cli


@pytest.fixture(scope="module")
def demo_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("honest") / "home"
    code, _, err = run_cli("import", str(demo_path()), home=home)
    assert code == 0, err
    return home


def search(home, *args):
    code, out, err = run_cli("search", *args, home=home)
    assert code == 0, err
    return out, err


def test_a_word_no_message_holds_is_said_and_neighbours_are_labelled(demo_home):
    result = json.loads(search(demo_home, "pizza", "--json")[0])
    assert result["words_found"] is False
    assert result["summary"].startswith("no message holds the words of “pizza”")
    floor = RetrievalSettings().meaning_floor
    assert all(h["match"] == "meaning" and h["scores"]["dense"] >= floor for h in result["hits"])
    out, _ = search(demo_home, "pizza")
    assert out.startswith("no message holds the words of “pizza”")
    assert "hits for" not in out


def test_meaning_still_finds_what_the_words_miss(demo_home):
    result = json.loads(search(demo_home, "puppy", "--json")[0])
    assert result["words_found"] is False and result["summary"].endswith("nearest by meaning:")
    texts = [m["text"] for h in result["hits"] for m in h["messages"]]
    assert any("Biscuit" in t for t in texts)  # "I adopted a dog! ... Her name is Biscuit."
    out, _ = search(demo_home, "puppy")
    assert "[by meaning]" in out.splitlines()[1]


def test_word_matches_are_plain_results(demo_home):
    result = json.loads(search(demo_home, "Biscuit", "--json")[0])
    assert result["words_found"] is True and result["summary"] is None
    assert result["hits"][0]["match"] == "words"
    out, _ = search(demo_home, "Biscuit")
    assert out.startswith("#1")


def test_nothing_above_the_floor_is_an_empty_honest_list(demo_home, monkeypatch):
    monkeypatch.setenv("RAWRAG_RETRIEVAL_MEANING_FLOOR", "0.99")
    result = json.loads(search(demo_home, "pizza", "--json")[0])
    assert result["hits"] == [] and result["summary"].endswith("none is close in meaning")
    expected = "no message holds the words of “pizza”, and none is close in meaning"
    assert search(demo_home, "pizza")[0].strip() == expected
