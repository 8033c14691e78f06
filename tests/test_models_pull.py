"""`rawrag models pull` against a local stand-in for the Hugging Face hub
(tests/fake_hub.py): download, verify, resume, reject, fail offline."""

from __future__ import annotations

import hashlib
import os
import socket
import stat
from pathlib import Path

import pytest

from rawrag_tui.errors import ModelError
from rawrag_tui.models import manager
from rawrag_tui.models.registry import PROFILES
from rawrag_tui.settings import load_settings
from tests.fake_hub import COMMIT, FakeHub

REPO = "someone/tiny-model"
# huggingface_hub writes in 10 MiB chunks: a resumable partial needs more.
CHUNK = 10 * 1024 * 1024
BIG = os.urandom(CHUNK + 2 * 1024 * 1024 + 17)
FILES = {
    f"{REPO}/onnx/model.onnx": BIG,
    f"{REPO}/tokenizer.json": b'{"version": "1.0"}',  # small: not LFS on the hub
    f"{REPO}/README.md": b"# tiny\n",
}
LFS = {f"{REPO}/onnx/model.onnx"}


@pytest.fixture
def hub():
    server = FakeHub(FILES, LFS).start()
    yield server
    server.stop()


@pytest.fixture
def settings(tmp_path, hub, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    return load_settings(tmp_path / "home", models={"hub_endpoint": hub.url})


def tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_pull_repo_downloads_verifies_and_records(settings, hub):
    records = manager.pull(REPO, settings, include=["onnx/*", "*.json"])
    assert {r["path"] for r in records} == {"onnx/model.onnx", "tokenizer.json"}
    final = settings.models_dir / "hub" / "someone--tiny-model"
    assert (final / "onnx/model.onnx").read_bytes() == BIG
    assert stat.S_IMODE((final / "onnx/model.onnx").stat().st_mode) == 0o600
    assert stat.S_IMODE(settings.models_dir.stat().st_mode) == 0o700
    pulled = manager.read_pulled(settings.models_dir)
    model = pulled[f"{REPO}/onnx/model.onnx"]
    assert model["sha256"] == hashlib.sha256(BIG).hexdigest() and model["verified"] == "hub LFS sha256"
    assert model["commit"] == COMMIT
    assert pulled[f"{REPO}/tokenizer.json"]["verified"].startswith("recorded at pull")
    # nothing left in the download area
    assert tree(settings.models_dir / ".downloads") == [] if (settings.models_dir / ".downloads").exists() else True
    # a second pull finds the files and downloads nothing
    before = len(hub.requests)
    manager.pull(REPO, settings, include=["onnx/*", "*.json"])
    assert [r for r in hub.requests[before:] if r[0] == "GET" and "/resolve/" in r[1]] == []


def test_pull_resumes_after_the_connection_drops(settings, hub):
    key = f"{REPO}/onnx/model.onnx"
    hub.drop_after[key] = CHUNK + 500_000
    manager.pull(REPO, settings, include=["onnx/model.onnx"])
    final = settings.models_dir / "hub" / "someone--tiny-model" / "onnx/model.onnx"
    assert final.read_bytes() == BIG
    ranges = hub.ranges(key)
    assert ranges[0] is None and ranges[-1] is not None
    assert ranges[-1] == f"bytes={CHUNK}-"  # resumed after the chunk on disk, not restarted


def test_interrupted_pull_leaves_no_file_in_place_and_resumes_next_time(settings, hub):
    key = f"{REPO}/onnx/model.onnx"
    hub.drop_after[key] = CHUNK + 1_000_000
    with pytest.raises(ModelError) as failed:
        manager.pull(REPO, settings, include=["onnx/model.onnx"], attempts=1)
    assert "run the pull again to resume" in str(failed.value) and "\n" not in str(failed.value)
    final_dir = settings.models_dir / "hub"
    assert not final_dir.exists() or tree(final_dir) == []
    assert f"{REPO}/onnx/model.onnx" not in manager.read_pulled(settings.models_dir)
    manager.pull(REPO, settings, include=["onnx/model.onnx"], attempts=1)
    assert (final_dir / "someone--tiny-model/onnx/model.onnx").read_bytes() == BIG
    assert hub.ranges(key)[-1] == f"bytes={CHUNK}-"


def test_corrupted_download_is_rejected_and_removed(settings, hub):
    key = f"{REPO}/onnx/model.onnx"
    hub.corrupt.add(key)
    with pytest.raises(ModelError) as failed:
        manager.pull(REPO, settings, include=["onnx/model.onnx"])
    message = str(failed.value)
    assert "checksum mismatch" in message and hashlib.sha256(BIG).hexdigest() in message and "\n" not in message
    assert tree(settings.models_dir) in ([], ["pulled.json"])
    assert key not in manager.read_pulled(settings.models_dir)


def test_pinned_checksum_wins_over_the_hub(settings, hub):
    from rawrag_tui.models.registry import ModelFile

    wrong = ModelFile("README.md", sha256="0" * 64)
    with pytest.raises(ModelError, match="checksum mismatch"):
        manager.pull_file(REPO, wrong, settings)
    assert not (settings.models_dir / "hub" / "someone--tiny-model" / "README.md").exists()


def test_no_server_is_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = load_settings(tmp_path / "home", models={"hub_endpoint": f"http://127.0.0.1:{port}"})
    for target in ("qwen3-0.6b", REPO):
        with pytest.raises(ModelError) as failed:
            manager.pull(target, settings)
        message = str(failed.value)
        assert "cannot reach the model hub" in message and f"127.0.0.1:{port}" in message
        assert "\n" not in message and len(message) < 250
    assert not (settings.models_dir / "hub").exists()
    assert tree(settings.models_dir) == []


def test_missing_file_and_repo_are_clear(settings, hub):
    from rawrag_tui.models.registry import ModelFile

    with pytest.raises(ModelError, match="no such file"):
        manager.pull_file(REPO, ModelFile("onnx/nope.onnx"), settings)
    with pytest.raises(ModelError, match="not found"):
        manager.pull("nobody/nothing", settings)
    with pytest.raises(ModelError, match="not a profile"):
        manager.pull("not a repo", settings)


def test_pull_profile_then_list_and_use(settings, hub):
    profile = PROFILES["qwen3-0.6b"]
    for spec in profile.hub_roles():  # the hub stand-in serves every file of the profile
        for repo, f in spec.all_files():
            hub.files[f"{repo}/{f.path}"] = f"{repo}/{f.path}".encode() * 1000
            hub.lfs.add(f"{repo}/{f.path}")
    with pytest.raises(ModelError, match="is not pulled"):
        manager.use("qwen3-0.6b", settings)
    manager.pull("qwen3-0.6b", settings)
    listing = manager.list_models(settings)
    qwen = next(p for p in listing["profiles"] if p["profile"] == "qwen3-0.6b")
    assert all(role["present"] for role in qwen["roles"].values())
    assert listing["active"] == "bundled"
    config = manager.use("qwen3-0.6b", settings)
    assert load_settings(settings.home).models.profile == "qwen3-0.6b"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600


def test_use_keeps_the_rest_of_config(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('# mine\n[retrieval]\ntop_k = 9\n\n[models]\nthreads = 2 # two\nprofile = "x"\n')
    manager.set_config_value(home, "models", "profile", "bundled")
    text = (home / "config.toml").read_text()
    assert "# mine" in text and "threads = 2 # two" in text and 'profile = "bundled"' in text
    assert text.count("profile") == 1
    settings = load_settings(home)
    assert settings.retrieval.top_k == 9 and settings.models.threads == 2
    with pytest.raises(ModelError, match="unknown model profile"):
        manager.use("qwen9", settings)
