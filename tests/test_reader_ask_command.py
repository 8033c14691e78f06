"""``rawrag ask``: argument parsing and output, over a stand-in for the
Memory facade whose ``ask`` is the method proposed for memory.py (search,
then answer_question with a lazily made reader)."""

import argparse
import json

import pytest

from rawrag_tui.answer.prompts import NOTHING_FOUND
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.commands import ask as ask_cmd
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult
from rawrag_tui.settings import load_settings


def parser():
    top = argparse.ArgumentParser(prog="rawrag")
    top.add_argument("--home")
    top.add_argument("--json", action="store_true")
    ask_cmd.register(top.add_subparsers(dest="command"))
    return top


def test_flags_parse_before_or_after_the_subcommand():
    p = parser()
    a = p.parse_args(["ask", "Who is Max?", "--json", "--date", "2023-05-10", "--gpu-layers", "0"])
    assert a.json and a.date == "2023-05-10" and a.gpu_layers == "0" and a.func is ask_cmd.run
    assert p.parse_args(["--json", "ask", "q"]).json
    assert not p.parse_args(["ask", "q"]).json
    with pytest.raises(SystemExit) as exc:
        p.parse_args(["ask", "q", "--date", "10/05/2023"])
    assert exc.value.code == 2


class Reader:
    name, context_tokens = "scripted", 4096

    def count_tokens(self, text):
        return len(text.split())

    def answer(self, prompt, max_tokens=256, on_progress=None):
        yield from ["Max is a golden", " retriever [2]", " [9]."]


class StandInMemory:
    def __init__(self, home, hits, reader=Reader, **overrides):
        self.settings = load_settings(home, **overrides)
        self.hits = hits
        self.reader = reader
        self.loaded = 0

    def search(self, query, mode=None, limit=None, candidates=None):
        return SearchResult(query, "hybrid", self.hits, {"total": 0.01})

    def _reader(self):
        self.loaded += 1
        return self.reader()

    def close(self):
        pass

    def ask(self, question, *, date=None, on_token=None, on_evidence=None, on_progress=None, gpu_layers=None,
            filters=None):
        result = self.search(question)
        return answer_question(question, result, self._reader, date=date, on_token=on_token,
                               on_evidence=on_evidence, on_progress=on_progress,
                               answer_tokens=self.settings.reader.answer_tokens,
                               prompt_style="cited", checks=self.settings.answer.checks)


HITS = [Hit(1, 1, "chat", 1, "", messages=[
    EvidenceMessage(1, "D1:1", 1, "chat", 1, "2023-05-08T10:00:00", "Caroline", "user", "I adopted Max."),
    EvidenceMessage(2, "D1:2", 1, "chat", 2, "2023-05-08T10:01:00", "Caroline", "user", "Max is a golden retriever."),
])]


@pytest.fixture
def memory(tmp_path, monkeypatch):
    holder = {}

    def open_memory(args, **overrides):
        holder["mem"] = StandInMemory(tmp_path, holder.get("hits", HITS), holder.get("reader", Reader), **overrides)
        return holder["mem"]

    from rawrag_tui.commands import common

    monkeypatch.setattr(common, "open_memory", open_memory)
    return holder


def test_streams_answer_then_citations(memory, capsys):
    args = parser().parse_args(["ask", "What breed is Max?", "--show-evidence"])
    assert ask_cmd.run(args) == 0
    out, err = capsys.readouterr()
    assert "[2] Caroline: Max is a golden retriever." in out  # evidence first
    assert "Max is a golden retriever [2].\n" in out
    assert "[9]" not in out
    assert "  [2] D1:2 · 2023-05-08 Mon 10:01 · Caroline: Max is a golden retriever." in out  # the display date
    assert "1 citation(s) to messages not in the evidence removed" in err


def test_json_output(memory, capsys):
    assert ask_cmd.run(parser().parse_args(["ask", "What breed is Max?", "--json"])) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answer"] == "Max is a golden retriever [2]."
    assert data["citations"] == [{"n": 2, "external_id": "D1:2", "conversation": "chat",
                                  "timestamp": "2023-05-08T10:01:00", "speaker": "Caroline",
                                  "text": "Max is a golden retriever.", "how": "cited"}]
    assert data["dropped_citations"] == 1 and data["evidence_tokens"] > 0
    assert set(data["timings"]) >= {"search", "pack", "read", "first_token"}


def test_empty_store_answers_without_loading_the_reader(memory, capsys):
    memory["hits"] = []
    assert ask_cmd.run(parser().parse_args(["ask", "Who is Max?"])) == 0
    assert capsys.readouterr().out.strip() == NOTHING_FOUND
    assert memory["mem"].loaded == 0


def test_empty_question_is_a_user_error(memory):
    from rawrag_tui.errors import UserError

    with pytest.raises(UserError, match="empty"):
        ask_cmd.run(parser().parse_args(["ask", "  "]))


class LateReader(Reader):
    """Answers the trip question with the date the trip was reported on, not the one it moved to."""

    def answer(self, prompt, max_tokens=256, on_progress=None):
        yield from ["4 May", " 2026"]


def test_the_first_answer_printed_is_the_final_one_and_the_readers_words_its_note(memory, capsys):
    from tests.test_stated_dates import QUESTION, TRIP

    memory["hits"], memory["reader"] = [Hit(1, 1, "Climbing crew", 1, "", messages=TRIP)], LateReader
    assert ask_cmd.run(parser().parse_args(["ask", QUESTION])) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "3 May 2026"  # the corrected value is the answer, printed first
    assert lines[1] == ('  (the reader said "4 May 2026", which no message says; [2], '
                        "the latest message on this that states a date, says 3 May 2026)")
    assert "4 May 2026" not in out.replace(lines[1], "") and "4 May" not in err  # not streamed off a terminal
    data = json.loads(_run_json(memory, capsys, QUESTION))
    assert data["answer"] == "3 May 2026" and data["reader_said"] == "4 May 2026"


def test_no_checks_streams_the_readers_words_as_the_answer(memory, capsys):
    from tests.test_stated_dates import QUESTION, TRIP

    memory["hits"], memory["reader"] = [Hit(1, 1, "Climbing crew", 1, "", messages=TRIP)], LateReader
    assert ask_cmd.run(parser().parse_args(["ask", QUESTION, "--no-checks"])) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines() == ["4 May 2026"] and memory["mem"].settings.answer.checks == ()


def test_on_a_terminal_the_draft_shows_dimmed_on_stderr_and_is_wiped():
    import io

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    draft = ask_cmd.Draft(term)
    draft.write("4 May")
    draft.write(" 2026")
    assert term.getvalue() == "\x1b[2mreader: 4 May 2026"
    draft.wipe()
    assert term.getvalue().endswith("\x1b[0m\r\x1b[K") and draft.text == ""


def _run_json(memory, capsys, question):
    assert ask_cmd.run(parser().parse_args(["ask", question, "--json"])) == 0
    return capsys.readouterr().out
