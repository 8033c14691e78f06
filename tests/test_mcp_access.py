"""`rawrag mcp --http` answers only its owner's token; `--socket` only its owner's processes.

The real command runs in a subprocess on a real home; requests go over real
HTTP (httpx2, the SDK's HTTP client) and, where the machine allows it, as a
second user (``nobody``, through setpriv).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from .conftest import REPO, run_cli

mcp = pytest.importorskip("mcp")
import httpx2  # noqa: E402  (the SDK's HTTP client)
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402

from rawrag_tui.errors import UserError  # noqa: E402
from rawrag_tui.mcp_access import TOKEN_FILE, home_token  # noqa: E402
from rawrag_tui.mcp_server import MAX_QUERY  # noqa: E402

#: Generous: the server answers a refusal at once; this only keeps a broken one from hanging the suite.
PATIENCE_S = 120
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                         "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    from rawrag_tui.demo import demo_path

    home = tmp_path_factory.mktemp("mcp-access") / "home"
    code, _, err = run_cli("import", str(demo_path()), "--no-embed", home=home)
    assert code == 0, err
    return home


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(home: Path, *flags: str, ready: Any) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "rawrag_tui.cli", "--home", str(home), "mcp", *flags],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not ready():
        assert proc.poll() is None, proc.communicate()[1].decode()
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.2)  # polling interval for a condition (ready()), not a wait for speed
    return proc


def _stop(proc: subprocess.Popen) -> tuple[str, str]:
    proc.terminate()
    out, err = proc.communicate(timeout=30)
    assert b"Traceback" not in err, err.decode()
    return out.decode(), err.decode()


def _listening(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(str(path))
            return True
        except OSError:
            return False


def _connects(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def http_server(home) -> Iterator[tuple[str, str, subprocess.Popen]]:
    port = _free_port()
    proc = _start(home, "--http", "--port", str(port), ready=lambda: _connects(port))
    token = (home / TOKEN_FILE).read_text().strip()
    yield f"http://127.0.0.1:{port}/mcp", token, proc
    if proc.poll() is None:
        _stop(proc)


def test_a_request_without_the_token_or_with_a_wrong_one_gets_401(http_server):
    url, token, _ = http_server
    wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
    tries = {"none": {}, "wrong": {"Authorization": f"Bearer {wrong}"},
             "prefix": {"Authorization": f"Bearer {token[:-1]}"}, "basic": {"Authorization": f"Basic {token}"},
             "right": {"Authorization": f"Bearer {token}"}}
    with httpx2.Client(timeout=PATIENCE_S) as http:
        codes = {name: http.post(url, json=INITIALIZE, headers={**HEADERS, **extra}) for name, extra in tries.items()}
    assert {name: r.status_code for name, r in codes.items()} == {
        "none": 401, "wrong": 401, "prefix": 401, "basic": 401, "right": 200}
    assert codes["none"].headers["www-authenticate"].startswith("Bearer ")
    assert codes["none"].json() == {"error": "invalid_token", "error_description": "Authentication required"}


def test_the_token_does_not_open_the_host_and_origin_checks(http_server):
    url, token, _ = http_server
    auth = {**HEADERS, "Authorization": f"Bearer {token}"}
    with httpx2.Client(timeout=PATIENCE_S) as http:
        foreign_host = http.post(url, json=INITIALIZE, headers={**auth, "Host": "evil.example"})
        foreign_origin = http.post(url, json=INITIALIZE, headers={**auth, "Origin": "http://evil.example"})
    assert (foreign_host.status_code, foreign_origin.status_code) == (421, 403)


def test_with_the_token_a_1mb_query_is_refused_in_one_line_while_status_answers(http_server):
    url, token, _ = http_server

    async def session() -> tuple[Any, Any]:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"},
                                      timeout=httpx2.Timeout(PATIENCE_S)) as http, \
                Client(streamable_http_client(url, http_client=http)) as client:
            with anyio.fail_after(PATIENCE_S):
                huge, status = await asyncio.gather(client.call_tool("search", {"query": "q" * 1_048_576}),
                                                    client.call_tool("status", {}))
                return huge, status

    huge, status = asyncio.run(session())
    assert huge.is_error and huge.content[0].text == f"search: query: 1,048,576 characters; give at most {MAX_QUERY:,}"
    assert not status.is_error and status.structured_content["messages"] == 44


def test_the_server_prints_client_settings_carrying_the_url_and_the_token(home, http_server):
    url, token, proc = http_server
    out, _ = _stop(proc)
    assert f'"url": "{url}", "headers": {{"Authorization": "Bearer {token}"}}' in out
    assert f'--header "Authorization: Bearer {token}"' in out
    assert stat.S_IMODE((home / TOKEN_FILE).stat().st_mode) == 0o600


def test_the_token_is_made_once_per_home_and_kept_private(tmp_path):
    made, fresh = home_token(tmp_path)
    again, fresh_again = home_token(tmp_path)
    assert fresh and not fresh_again and made == again and len(made) >= 40
    assert stat.S_IMODE((tmp_path / TOKEN_FILE).stat().st_mode) == 0o600
    os.chmod(tmp_path / TOKEN_FILE, 0o644)
    assert home_token(tmp_path) == (made, False)
    assert stat.S_IMODE((tmp_path / TOKEN_FILE).stat().st_mode) == 0o600
    (tmp_path / TOKEN_FILE).write_text("short\n")
    with pytest.raises(UserError, match="not a token rawrag made"):
        home_token(tmp_path)


def _sock_client(path: Path) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(transport=httpx2.AsyncHTTPTransport(uds=str(path)), timeout=httpx2.Timeout(PATIENCE_S))


def test_the_unix_socket_is_0600_in_a_0700_home_and_serves_the_same_tools(home):
    path = home / "mcp.sock"
    proc = _start(home, "--socket", ready=lambda: _listening(path))
    try:
        mode = path.stat().st_mode
        assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o600
        assert stat.S_IMODE(home.stat().st_mode) == 0o700

        async def session() -> Any:
            async with _sock_client(path) as http, \
                    Client(streamable_http_client("http://localhost/mcp", http_client=http)) as client:
                with anyio.fail_after(PATIENCE_S):
                    return await client.call_tool("status", {})

        status = asyncio.run(session())
        assert not status.is_error and status.structured_content["messages"] == 44
    finally:
        out, _ = _stop(proc)
    assert f"Unix socket {path}" in out
    assert not path.exists()  # removed on the way out


def test_a_socket_path_that_is_not_a_socket_is_one_line(home, tmp_path):
    taken = tmp_path / "plain-file"
    taken.write_text("mine")
    code, _, err = run_cli("mcp", "--socket", str(taken), home=home)
    assert code == 1 and err == f"rawrag: error: {taken}: exists and is not a socket; choose another --socket path\n"
    assert taken.read_text() == "mine"


def _as_nobody() -> list[str] | None:
    """The command prefix that runs as the ``nobody`` user, or None where this machine cannot."""
    if not hasattr(os, "getuid") or os.getuid() != 0 or not shutil.which("setpriv") or not shutil.which("curl"):
        return None
    try:
        import pwd

        nobody = pwd.getpwnam("nobody")
    except (ImportError, KeyError):
        return None
    return ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups"]


def test_another_local_user_cannot_read_the_history(home):
    """The issue's attack: as ``nobody``, a plain curl against the owner's server (the manual check in docs/mcp.md)."""
    prefix = _as_nobody()
    if prefix is None:
        pytest.skip("needs root, setpriv, curl and a `nobody` user to act as a second user; see docs/mcp.md")
    port = _free_port()
    proc = _start(home, "--http", "--port", str(port), ready=lambda: _connects(port))
    token = (home / TOKEN_FILE).read_text().strip()
    try:
        curl = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "--data", json.dumps(INITIALIZE),
                *(x for k, v in HEADERS.items() for x in ("-H", f"{k}: {v}")), f"http://127.0.0.1:{port}/mcp"]
        as_nobody = subprocess.run([*prefix, *curl], capture_output=True, text=True, timeout=PATIENCE_S)
        token_read = subprocess.run([*prefix, "cat", str(home / TOKEN_FILE)], capture_output=True, timeout=PATIENCE_S)
        as_owner = subprocess.run([*curl, "-H", f"Authorization: Bearer {token}"], capture_output=True, text=True,
                                  timeout=PATIENCE_S)
    finally:
        _stop(proc)
    assert as_owner.stdout == "200"  # the same request with the token gets in: the check below can fail
    assert as_nobody.stdout == "401"
    assert token_read.returncode != 0 and not token_read.stdout

    # a folder anyone may enter (as /tmp is), so that only the socket's own 0600 keeps nobody out
    shared = Path(tempfile.mkdtemp(prefix="rawrag-sock-"))
    try:
        shared.chmod(0o755)
        path = shared / "mcp.sock"
        sock_proc = _start(home, "--socket", str(path), ready=lambda: _listening(path))
        try:
            by_socket = subprocess.run([*prefix, "curl", "-s", "--unix-socket", str(path), "-o", "/dev/null", "-w",
                                        "%{http_code}", "http://localhost/mcp"], capture_output=True, text=True,
                                       timeout=PATIENCE_S)
            mode = stat.S_IMODE(path.stat().st_mode)
        finally:
            _stop(sock_proc)
        assert stat.S_IMODE(shared.stat().st_mode) == 0o755  # an existing folder keeps its mode
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    assert mode == 0o600
    assert by_socket.returncode != 0 and by_socket.stdout in ("", "000")  # could not even connect
