"""Servers for the reader-endpoint tests, on 127.0.0.1 only.

``StandIn``: a tiny OpenAI-compatible server (http.server in a thread) whose
answer the test sets: the status codes and broken streams a real server
cannot be made to return. ``RealServer``: llama-cpp-python's own
OpenAI-compatible server in a child process, serving the SmolLM2 test GGUF.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

#: What llama-cpp-python's ``server`` extra brings (pyproject's test extra).
SERVER_MODULES = ("fastapi", "uvicorn", "sse_starlette", "starlette_context", "pydantic_settings")
MODEL = "smol"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_extra_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None for name in SERVER_MODULES)


class StandIn:
    """An OpenAI-compatible stand-in whose reply ``mode`` the test sets.

    Modes: "ok" (streams ``reply`` in pieces), an int (that HTTP status with
    ``body``), "drop" (streams one piece, then closes the connection
    mid-answer), "hang" (never answers a chat request; released at stop).
    ``/v1/models`` lists ``models``; there is no tokenizer endpoint, so the
    reader estimates counts (the Ollama case).
    """

    def __init__(self, models=(MODEL, "nomic-embed-text")):
        self.mode: object = "ok"
        self.body: dict = {}
        self.reply = ["Jordan lives ", "in Lisbon."]
        self.models = list(models)
        self.requests: list[dict] = []
        self.release = threading.Event()
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _json(self, code: int, data: dict) -> None:
                raw = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.send_header("Connection", "close")  # no connection outlives a stopped stand-in
                self.end_headers()
                self.wfile.write(raw)
                self.close_connection = True

            def do_GET(self):
                if self.path.rstrip("/") == "/v1/models":
                    self._json(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in stand_in.models]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path != "/v1/chat/completions":
                    self._json(404, {"detail": "Not Found"})
                    return
                stand_in.requests.append(body)
                mode = stand_in.mode
                if isinstance(mode, int):
                    self._json(mode, stand_in.body)
                    return
                if mode == "hang":
                    stand_in.release.wait(60)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()

                def send(data: str) -> None:
                    raw = f"data: {data}\n\n".encode()
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(raw), raw))
                    self.wfile.flush()

                def chunk(delta: dict, finish: str | None = None) -> str:
                    return json.dumps({"id": "c", "object": "chat.completion.chunk", "created": 0,
                                       "model": body["model"],
                                       "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

                pieces = stand_in.reply if mode == "ok" else stand_in.reply[:1]
                for piece in pieces:
                    send(chunk({"content": piece}))
                if mode == "drop":  # cut mid-answer: no finish, no [DONE], no last chunk
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                send(chunk({}, "stop"))
                send("[DONE]")
                self.wfile.write(b"0\r\n\r\n")
                self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> StandIn:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


def gguf_path() -> Path:
    from rawrag_tui.models.gguf import TEST_READER, part_paths

    (path,) = part_paths(TEST_READER)
    return Path(path)


def reader_threads() -> int:
    """The threads the bundled reader uses here (models.threads = 0): the server
    gets the same, and the same batch, so both compute the same numbers."""
    from rawrag_tui.models.llama_reader import available_threads

    return available_threads(0)


class RealServer:
    """``python -m llama_cpp.server`` on 127.0.0.1, started and stopped by the test."""

    #: A hang guard on start-up, never a speed bet: the server is polled until it lists its model.
    START_DEADLINE = 300.0

    def __init__(self, port: int | None = None):
        self.port = port or free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}/v1"
        self.proc: subprocess.Popen | None = None
        self.log = Path(os.environ.get("TMPDIR", "/tmp")) / f"rawrag-llama-server-{self.port}.log"

    def start(self) -> RealServer:
        threads = str(reader_threads())
        args = [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf_path()), "--model_alias", MODEL,
                "--host", "127.0.0.1", "--port", str(self.port), "--n_ctx", "8192", "--n_batch", "256",
                "--n_threads", threads, "--n_threads_batch", threads]
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.START_DEADLINE
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"llama_cpp.server exited {self.proc.returncode}: "
                                     f"{self.log.read_text(errors='replace')[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.endpoint}/models", timeout=5) as reply:
                    if MODEL in reply.read().decode():
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"llama_cpp.server did not list its model within {self.START_DEADLINE} s")
            time.sleep(0.2)  # polling interval for a condition, not a wait for speed

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=60)
        self.proc = None
