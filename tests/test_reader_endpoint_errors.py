"""Every way a reader server fails is one line naming the endpoint and the
fix, and the next question works: a stand-in server on 127.0.0.1 returns
what a real one cannot be made to (401, 404, 429, 5xx, a context-length
error, a stream cut mid-answer, silence)."""

from __future__ import annotations

import pytest

from rawrag_tui.cli import main
from rawrag_tui.errors import ModelError
from rawrag_tui.models import load_reader
from rawrag_tui.models.endpoint_errors import EndpointError
from rawrag_tui.models.openai_reader import ESTIMATE_MARGIN, EndpointReader
from rawrag_tui.settings import load_settings
from tests.reader_endpoint_support import MODEL, StandIn, free_port


@pytest.fixture
def server():
    with StandIn() as stand_in:
        yield stand_in


def reader_for(home, endpoint, **reader) -> EndpointReader:
    made = load_reader(load_settings(home, reader={"endpoint": endpoint, "model": MODEL, **reader}))
    assert isinstance(made, EndpointReader)
    return made


def one_line(exc: pytest.ExceptionInfo, endpoint: str) -> str:
    line = str(exc.value)
    assert isinstance(exc.value, ModelError) and "\n" not in line and endpoint in line, line
    return line


def read(reader: EndpointReader) -> str:
    return "".join(reader.answer("Where does Jordan live now?", max_tokens=16))


def test_streams_the_answer_with_greedy_sampling_and_estimated_counts(home, server):
    reader = reader_for(home, server.endpoint)
    assert read(reader) == "Jordan lives in Lisbon."
    sent = server.requests[-1]
    assert sent["model"] == MODEL and sent["stream"] is True and sent["temperature"] == 0
    assert sent["top_k"] == 1 and sent["repeat_penalty"] == 1.0 and sent["max_tokens"] == 16
    assert sent["messages"] == [{"role": "user", "content": "Where does Jordan live now?"}]
    # No tokenizer endpoint (as Ollama): cl100k with the margin, an over-count on purpose.
    from rawrag_tui.toolkit import count_tokens

    text = "Jordan moved to Lisbon in May; a flat in Alfama."
    assert reader.count_tokens(text) == -(-count_tokens(text) * ESTIMATE_MARGIN // 1)
    # No context reported: the setting.
    assert reader.context_tokens == 4096 - 32
    assert reader.read_by == {"backend": "openai-compatible", "model": MODEL, "endpoint": server.endpoint}
    # Nor ids to bias: it cannot be told which words not to write (answer/avoided_reading.py skips it).
    assert reader.can_avoid is False and reader.avoided_tokens(["Lisbon"]) == set()
    assert "".join(reader.answer_avoiding("Where does Jordan live now?", ["Lisbon"], max_tokens=16))
    assert "logit_bias" not in server.requests[-1]


@pytest.mark.parametrize(("status", "body", "words"), [
    (401, {"error": {"message": "Invalid API key"}}, "api_key_env"),
    (403, {"error": {"message": "forbidden"}}, "api_key_env"),
    (404, {"error": {"message": "model 'smol' not found"}}, "model"),
    (429, {"error": {"message": "Too many requests"}}, "wait"),
    (500, {"error": {"message": "CUDA out of memory"}}, "server's log"),
    (503, {"error": {"message": "loading model"}}, "server's log"),
    (400, {"error": {"message": "This model's maximum context length is 4096 tokens. However, you requested 9000 "
                                "tokens", "type": "invalid_request_error"}}, "endpoint_context"),
    (400, {"error": "the request exceeds the available context size, try increasing it"}, "endpoint_context"),
])
def test_each_status_is_one_line_and_the_next_question_works(home, server, status, body, words):
    reader = reader_for(home, server.endpoint)
    server.mode, server.body = status, body
    with pytest.raises(EndpointError) as exc:
        read(reader)
    assert words in one_line(exc, server.endpoint)
    server.mode = "ok"
    assert read(reader) == "Jordan lives in Lisbon."


def test_a_stream_cut_mid_answer_is_one_line(home, server):
    reader = reader_for(home, server.endpoint)
    server.mode = "drop"
    with pytest.raises(EndpointError) as exc:
        read(reader)
    line = one_line(exc, server.endpoint)
    assert "dropped mid-answer" in line or "did not answer" in line, line
    server.mode = "ok"
    assert read(reader) == "Jordan lives in Lisbon."


def test_a_server_that_never_answers_times_out_in_one_line(home, server):
    reader = reader_for(home, server.endpoint, timeout=0.5)
    server.mode = "hang"
    with pytest.raises(EndpointError) as exc:
        read(reader)
    assert "did not answer in time" in one_line(exc, server.endpoint)


def test_a_server_that_is_down_is_one_line(home):
    endpoint = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    reader = reader_for(home, endpoint)
    with pytest.raises(EndpointError) as exc:
        read(reader)
    assert "not reachable" in one_line(exc, endpoint)
    with pytest.raises(EndpointError) as exc:
        reader.context_tokens  # noqa: B018 - asks the server for its models
    assert "not reachable" in one_line(exc, endpoint)


def test_an_unknown_model_names_what_the_server_serves(home, server):
    reader = load_reader(load_settings(home, reader={"endpoint": server.endpoint, "model": "qwen3:8b"}))
    with pytest.raises(EndpointError) as exc:
        reader.context_tokens  # noqa: B018
    line = one_line(exc, server.endpoint)
    assert "'qwen3:8b'" in line and MODEL in line and f"rawrag reader use {server.endpoint} {MODEL}" in line


def test_a_missing_key_variable_and_a_missing_model_are_one_line(home, server, monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY", raising=False)
    with pytest.raises(ModelError) as exc:
        reader_for(home, server.endpoint, api_key_env="NO_SUCH_KEY")
    assert "NO_SUCH_KEY" in one_line(exc, server.endpoint)
    with pytest.raises(ModelError) as exc:
        load_reader(load_settings(home, reader={"endpoint": server.endpoint}))
    assert "reader.model" in one_line(exc, server.endpoint)
    monkeypatch.setenv("MY_KEY", "sk-test")
    assert read(reader_for(home, server.endpoint, api_key_env="MY_KEY")) == "Jordan lives in Lisbon."


def test_the_prompt_speed_is_measured_once_and_kept(home, server):
    reader = reader_for(home, server.endpoint)
    warmed = reader.warm("You answer from the messages below.\n" * 20, 2048)
    assert warmed.rate > 0 and warmed.seconds > 0 and len(server.requests) == 1
    assert server.requests[0]["max_tokens"] == 1
    again = reader_for(home, server.endpoint).warm("anything", 2048)  # a new process, the same server
    assert again.rate == pytest.approx(warmed.rate, rel=0.01) and again.seconds == 0.0
    assert len(server.requests) == 1


def test_rawrag_ask_exits_1_with_one_line_then_answers(open_memory, server, monkeypatch, capsys):
    """The CLI face: a failing server is exit 1 and one line on stderr; then an answer that says where it was read."""
    import json

    from rawrag_tui.demo import demo_path

    mem = open_memory()
    mem.import_path(demo_path())
    home = str(mem.settings.home)
    mem.close()
    monkeypatch.setenv("RAWRAG_READER_ENDPOINT", server.endpoint)
    monkeypatch.setenv("RAWRAG_READER_MODEL", MODEL)
    server.mode, server.body = 401, {"error": {"message": "Invalid API key"}}
    assert main(["--home", home, "ask", "Where does Jordan live now?"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rawrag: error: ") and server.endpoint in err
    server.mode = "ok"
    assert main(["--home", home, "ask", "Where does Jordan live now?", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["answer"] == "Jordan lives in Lisbon."
    assert answer["reader"] == {"backend": "openai-compatible", "model": MODEL, "endpoint": server.endpoint}
    assert main(["--home", home, "ask", "Where does Jordan live now?"]) == 0
    assert f"read by {MODEL} at {server.endpoint}" in capsys.readouterr().err


def test_a_server_that_goes_away_after_the_first_answer_is_one_line(home):
    """Counting tokens with the server's tokenizer, then the server stops: one line, not a traceback."""
    with StandIn() as server:
        reader = reader_for(home, server.endpoint)
        assert read(reader) and reader.count_tokens("counted")
        # As after llama-cpp-python's server was found to count: its tokenizer, over HTTP.
        reader._counter = lambda text: reader._post("/extras/tokenize/count", {"input": text})["count"]
    with pytest.raises(EndpointError) as exc:
        reader.count_tokens("a text never counted before")
    assert "not reachable" in one_line(exc, server.endpoint)


def test_stopping_early_closes_the_stream_and_the_next_question_works(home, server):
    """The app's cancel (the caller stops reading): the HTTP stream is closed, nothing is raised."""
    server.reply = [f"piece {n} " for n in range(50)]
    reader = reader_for(home, server.endpoint)
    pieces = reader.answer("Where does Jordan live now?", max_tokens=64)
    assert next(pieces) == "piece 0 "
    pieces.close()  # as a generator the caller drops
    server.reply = ["Jordan lives ", "in Lisbon."]
    assert read(reader) == "Jordan lives in Lisbon."
