"""A first command on an empty memory says so and how to fill it (not "no matches").

Someone who has just installed rawrag and types ``rawrag search`` or
``rawrag ask`` has imported nothing yet; the answer must lead them to
``rawrag import FILE`` or ``rawrag demo``.
"""

import json
import time

from rawrag_tui.memory import Memory

from .conftest import run_cli, write_jsonl


def _says_empty(err: str, home) -> None:
    assert "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith("rawrag: error: ")
    assert f"the memory in {home} is empty" in line
    assert "rawrag import FILE" in line and "rawrag demo" in line


def test_search_and_ask_on_an_empty_memory_say_how_to_fill_it(home):
    for args in (("search", "where does Jordan live"), ("search", "--json", "Jordan"), ("ask", "where is Jordan?")):
        started = time.perf_counter()
        code, out, err = run_cli(*args, home=home)
        assert (code, out) == (1, ""), (args, out, err)
        _says_empty(err, home)
        # ask says it before any model (the embedder, the reader) is loaded
        assert time.perf_counter() - started < 30


def test_batch_search_on_an_empty_memory_fails_before_reading_queries(home):
    code, out, err = run_cli("search", "--json", "--batch", "-", home=home, stdin='{"id": 1, "query": "x"}\n')
    assert (code, out) == (1, "")
    _says_empty(err, home)


def test_a_memory_with_history_searches_as_before(home, tmp_path, open_memory):
    mem = open_memory()
    assert mem.empty_hint() is not None
    rows = [{"conversation": "c", "speaker": "Ann", "text": "The violet armadillo lives in Porto.",
             "timestamp": "2026-01-02T10:00:00"}]
    mem.import_path(write_jsonl(tmp_path / "one.jsonl", rows), "jsonl")
    assert mem.empty_hint() is None
    code, out, err = run_cli("search", "--json", "--mode", "lexical", "armadillo", home=home)
    assert code == 0, err
    assert json.loads(out)["hits"][0]["messages"][0]["text"] == rows[0]["text"]
    code, out, err = run_cli("search", "--mode", "lexical", "zzqx", home=home)
    assert code == 0 and "is empty" not in out + err


def test_the_hint_names_where_the_demo_keeps_its_data(home, monkeypatch, tmp_path):
    monkeypatch.setenv("RAWRAG_HOME", str(tmp_path / "default"))
    with Memory.open(home) as mem:
        assert f"kept apart in {tmp_path / 'default' / 'demo'}" in mem.empty_hint()
