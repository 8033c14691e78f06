"""A local stand-in for the Hugging Face hub, for pull tests.

It speaks the part of the hub's HTTP API that huggingface_hub uses:
``HEAD/GET /{repo}/resolve/{revision}/{path}`` (X-Repo-Commit, ETag /
X-Linked-Etag = the LFS sha256, X-Linked-Size, Range requests) and
``GET /api/models/{repo}/revision/{revision}`` (the file list with LFS
metadata). It can drop the connection part way through a file, or serve
corrupted bytes under the right checksum.
"""

from __future__ import annotations

import hashlib
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"


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
                    entry = {"rfilename": key[len(repo) + 1 :], "size": len(data),
                             "blobId": hashlib.sha1(data).hexdigest()}
                    if key in hub.lfs:
                        entry["lfs"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data),
                                        "pointerSize": 134}
                    siblings.append(entry)
                if not siblings:
                    self.send_response(404)
                    self.send_header("X-Error-Code", "RepoNotFound")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = json.dumps(
                    {"id": repo, "modelId": repo, "sha": COMMIT, "siblings": siblings, "private": False}
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> FakeHub:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def ranges(self, key: str) -> list[str | None]:
        return [r for m, p, r in self.requests if m == "GET" and p.endswith(key.split("/", 2)[2])]
