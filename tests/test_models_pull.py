"""`rawrag models pull` against a local stand-in for the Hugging Face hub.

The server speaks the part of the hub's HTTP API that huggingface_hub uses:
``HEAD/GET /{repo}/resolve/{revision}/{path}`` (X-Repo-Commit, ETag /
X-Linked-Etag = the LFS sha256, X-Linked-Size, Range requests) and
``GET /api/models/{repo}/revision/{revision}`` (the file list with LFS
metadata). It can drop the connection part way through a file, or serve
corrupted bytes under the right checksum.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from rawrag_tui.errors import ModelError
from rawrag_tui.models import manager
from rawrag_tui.models.registry import PROFILES
from rawrag_tui.settings import load_settings

COMMIT = "0123456789abcdef0123456789abcdef01234567"
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


class FakeHub:
    def __init__(self, files: dict[str, bytes], lfs: set[str]):
        self.files = dict(files)
        self.lfs = set(lfs)
        self.drop_after: dict[str, int] = {}  # key -> bytes sent before hanging up (once)
        self.corrupt: set[str] = set()
        self.requests: list[tuple[str, str, str | None]] = []
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _resolve(self):
                # /{owner}/{name}/resolve/{revision}/{path}
                parts = self.path.split("?")[0].lstrip("/").split("/")
                if len(parts) < 5 or parts[2] != "resolve":
                    return None
                return f"{parts[0]}/{parts[1]}/" + "/".join(parts[4:])

            def _headers_for(self, key):
                data = hub.files[key]
                self.send_header("X-Repo-Commit", COMMIT)
                if key in hub.lfs:
                    sha = hashlib.sha256(data).hexdigest()
                    self.send_header("X-Linked-Etag", f'"{sha}"')
                    self.send_header("ETag", f'"{sha}"')
                    self.send_header("X-Linked-Size", str(len(data)))
                else:
                    self.send_header("ETag", f'"{hashlib.sha1(data).hexdigest()}"')
                self.send_header("Accept-Ranges", "bytes")

            def _missing(self):
                self.send_response(404)
                self.send_header("X-Error-Code", "EntryNotFound")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_HEAD(self):
                key = self._resolve()
                hub.requests.append(("HEAD", self.path, None))
                if key not in hub.files:
                    return self._missing()
                self.send_response(200)
                self._headers_for(key)
                self.send_header("Content-Length", str(len(hub.files[key])))
                self.end_headers()

            def do_GET(self):
                rng = self.headers.get("Range")
                hub.requests.append(("GET", self.path, rng))
                if self.path.startswith("/api/models/"):
                    return self._api()
                key = self._resolve()
                if key not in hub.files:
                    return self._missing()
                data = hub.files[key]
                if key in hub.corrupt:
                    data = bytes(b ^ 0xFF for b in data[:64]) + data[64:]
                start = 0
                if rng and rng.startswith("bytes="):
                    start = int(rng[6:].split("-")[0])
                body = data[start:]
                self.send_response(206 if start else 200)
                self._headers_for(key)
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                cut = hub.drop_after.pop(key, None)
                if cut is not None:
                    self.wfile.write(body[:cut])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(body)

            def _api(self):
                # /api/models/{owner}/{name}/revision/{revision}
                parts = self.path.split("?")[0].split("/")
                repo = f"{parts[3]}/{parts[4]}"
                siblings = []
                for key, data in hub.files.items():
                    if not key.startswith(repo + "/"):
                        continue
                    entry = {"rfilename": key[len(repo) + 1 :], "size": len(data), "blobId": hashlib.sha1(data).hexdigest()}
                    if key in hub.lfs:
                        entry["lfs"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
                    siblings.append(entry)
                if not siblings:
                    self.send_response(404)
                    self.send_header("X-Error-Code", "RepoNotFound")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = json.dumps({"id": repo, "modelId": repo, "sha": COMMIT, "siblings": siblings, "private": False}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def ranges(self, key: str) -> list[str | None]:
        return [r for m, p, r in self.requests if m == "GET" and p.endswith(key.split("/", 2)[2])]


@pytest.fixture
def hub():
    server = FakeHub(FILES, LFS)
    server.thread.start()
    yield server
    server.server.shutdown()
    server.server.server_close()


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
