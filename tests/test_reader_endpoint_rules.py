"""A reader you choose, the rules that need no real model: privacy (refused
before any lookup), `rawrag reader use`, the settings, discovery on loopback."""

from __future__ import annotations

import json
import socket
import tomllib

import pytest

from rawrag_tui.cli import main
from rawrag_tui.errors import ModelError, UserError
from rawrag_tui.models.endpoint import check_endpoint, discover, is_loopback, parse_choice, use_command
from rawrag_tui.settings import load_settings
from tests.reader_endpoint_support import MODEL, StandIn

REMOTE = "http://gpu-box.invalid:8000/v1"


@pytest.fixture
def no_network(monkeypatch):
    """Any name lookup or connection fails the test (loopback included: none is expected)."""
    opened = []

    def refuse(*args, **kwargs):
        opened.append(args)
        raise AssertionError(f"a socket was opened: {args[:2]}")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    return opened


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST", "127.0.0.1", "127.3.2.1", "::1", "[::1]"])
def test_loopback_hosts_are_allowed(host):
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["10.0.0.2", "192.168.1.5", "gpu-box.invalid", "localhost.example.com",
                                  "127.0.0.1.nip.io", "0.0.0.0", "::ffff:8.8.8.8", "::"])
def test_other_hosts_are_not_loopback(host):
    assert not is_loopback(host)


def test_a_remote_endpoint_is_refused_in_one_line_before_any_lookup(no_network):
    with pytest.raises(ModelError) as exc:
        check_endpoint(REMOTE, allow_remote=False)
    line = str(exc.value)
    assert "\n" not in line and REMOTE in line and "allow_remote" in line
    assert check_endpoint(REMOTE + "/", allow_remote=True) == REMOTE
    assert not no_network


@pytest.mark.parametrize("url", ["ftp://127.0.0.1/v1", "127.0.0.1:11434", "http://:80/v1", "http://127.0.0.1:x/v1"])
def test_a_malformed_endpoint_is_one_line(url):
    with pytest.raises(UserError) as exc:
        check_endpoint(url, allow_remote=False)
    assert "\n" not in str(exc.value)


def test_rawrag_ask_with_a_remote_endpoint_is_refused_before_any_socket(monkeypatch, capsys, open_memory,
                                                                       no_network):
    """The whole `rawrag ask` (search included) on a home with history: exit 1,
    one line, and not one lookup or connection."""
    from rawrag_tui.demo import demo_path

    mem = open_memory()
    mem.import_path(demo_path())
    home = str(mem.settings.home)
    mem.close()
    monkeypatch.setenv("RAWRAG_READER_ENDPOINT", REMOTE)
    monkeypatch.setenv("RAWRAG_READER_MODEL", "Qwen/Qwen3-8B")
    code = main(["--home", home, "ask", "Where does Jordan live now?", "--json"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and REMOTE in err and "allow_remote" in err
    assert "Traceback" not in err and not no_network


def test_parse_choice_knows_the_usual_servers():
    assert parse_choice("ollama:qwen3:8b") == parse_choice("ollama:", "qwen3:8b")
    assert parse_choice("ollama:qwen3:8b").endpoint == "http://127.0.0.1:11434/v1"
    assert parse_choice("ollama:qwen3:8b").model == "qwen3:8b"
    assert parse_choice("lmstudio:qwen2.5-7b-instruct").endpoint == "http://127.0.0.1:1234/v1"
    assert parse_choice("http://gpu:8000/v1/", "Qwen/Qwen3-8B").endpoint == "http://gpu:8000/v1"
    assert parse_choice("bundled").bundled
    for bad in (("ollama",), ("vllm:x",), ("http://127.0.0.1:8000/v1",), ("bundled", "x"), ("ollama:a", "b")):
        with pytest.raises(UserError):
            parse_choice(*bad)
    assert use_command("http://127.0.0.1:11434/v1", "qwen3:8b") == "rawrag reader use ollama:qwen3:8b"
    assert use_command("http://127.0.0.1:9999/v1", "m") == "rawrag reader use http://127.0.0.1:9999/v1 m"


def test_reader_settings_have_env_overrides(monkeypatch, home):
    monkeypatch.setenv("RAWRAG_READER_ENDPOINT", "http://127.0.0.1:1234/v1")
    monkeypatch.setenv("RAWRAG_READER_MODEL", "m")
    monkeypatch.setenv("RAWRAG_READER_API_KEY_ENV", "MY_KEY")
    monkeypatch.setenv("RAWRAG_READER_ALLOW_REMOTE", "1")
    r = load_settings(home).reader
    assert (r.endpoint, r.model, r.api_key_env, r.allow_remote) == ("http://127.0.0.1:1234/v1", "m", "MY_KEY", True)
    assert load_settings(home, reader={"allow_remote": False}).reader.allow_remote is False


def _config(home) -> dict:
    return tomllib.loads((home / "config.toml").read_text(encoding="utf-8"))


def test_reader_use_writes_the_config_and_bundled_goes_back(home, capsys):
    with StandIn() as server:
        code = main(["--home", str(home), "reader", "use", server.endpoint, MODEL, "--json"])
        out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["check"] == {"reachable": True, "served": True, "note": ""}
    assert _config(home)["reader"] == {"endpoint": server.endpoint, "model": MODEL}
    settings = load_settings(home)
    assert (settings.reader.endpoint, settings.reader.model) == (server.endpoint, MODEL)

    assert main(["--home", str(home), "reader", "use", "bundled"]) == 0
    assert _config(home)["reader"] == {"endpoint": "", "model": ""}
    assert "bundled" in capsys.readouterr().out


def test_reader_use_ollama_names_the_model_and_notes_a_server_that_is_not_running(home, capsys, monkeypatch):
    import rawrag_tui.models.endpoint as endpoint

    with StandIn() as server:
        server.release.set()
    dead = server.endpoint  # closed now: nothing listens there
    monkeypatch.setitem(endpoint.KNOWN_SERVERS, "ollama", ("Ollama", server.port))
    code = main(["--home", str(home), "reader", "use", "ollama:qwen3:8b"])
    captured = capsys.readouterr()
    assert code == 0 and _config(home)["reader"] == {"endpoint": dead, "model": "qwen3:8b"}
    assert captured.err.startswith("note: ") and captured.err.count("\n") == 1 and dead in captured.err


def test_reader_use_remote_needs_allow_remote_and_writes_no_key(home, capsys, monkeypatch, no_network):
    code = main(["--home", str(home), "reader", "use", REMOTE, "Qwen/Qwen3-8B"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "allow" in err and not (home / "config.toml").exists()
    assert not no_network

    monkeypatch.setenv("VLLM_KEY", "sk-secret-value")
    def unreachable(*args, **kwargs):  # the after-writing check may try: it must fail here, never go out
        raise OSError("tests do not leave this machine")

    monkeypatch.setattr(socket, "getaddrinfo", unreachable)
    monkeypatch.setattr(socket, "create_connection", unreachable)
    code = main(["--home", str(home), "reader", "use", REMOTE, "Qwen/Qwen3-8B", "--allow-remote",
                 "--api-key-env", "VLLM_KEY"])
    assert code == 0, capsys.readouterr().err
    text = (home / "config.toml").read_text(encoding="utf-8")
    assert _config(home)["reader"] == {"endpoint": REMOTE, "model": "Qwen/Qwen3-8B", "api_key_env": "VLLM_KEY",
                                       "allow_remote": True}
    assert "sk-secret-value" not in text


def test_discovery_lists_chat_models_and_the_command(capsys):
    with StandIn() as server:
        found = discover({"stand-in": server.port})
        assert [f.to_json() for f in found] == [{
            "server": "stand-in", "endpoint": server.endpoint, "models": [MODEL],
            "commands": [f"rawrag reader use {server.endpoint} {MODEL}"]}]
    assert discover({"stand-in": server.port}) == []  # stopped: nothing found, nothing raised


def test_reader_list_names_the_reader_in_use(home, capsys):
    assert main(["--home", str(home), "reader", "list", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["reader"]["backend"] == "bundled" and isinstance(listing["servers"], list)
