"""Who may reach `rawrag mcp` over HTTP: its owner, by a token or by a socket only they can open.

A port on 127.0.0.1 is open to every user of the machine, so without a
check another local user could read the history through ``get_messages``
while the home's 0700 folder kept them from its files. Two ways close it:

- **A bearer token per home** (``--http``): made once with :mod:`secrets`,
  kept in ``mcp-token`` in the home (0600), and required on every request as
  ``Authorization: Bearer ...``; a missing or wrong one gets 401. The SDK's
  own bearer middleware checks it (a :class:`TokenVerifier` that compares in
  constant time), so the 401 and its ``WWW-Authenticate`` header are the
  protocol's. The Host and Origin checks against DNS rebinding stay on.
- **A Unix socket in the home** (``--socket``): 0600 in a 0700 folder, so the
  operating system lets only the owner (and root) connect; no token needed.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import os
import secrets
import socket
import stat
from pathlib import Path
from typing import Any

from .errors import UserError

TOKEN_FILE = "mcp-token"
SOCKET_FILE = "mcp.sock"
#: Host headers the socket accepts: clients name a loopback host in the URL they send over it.
SOCKET_HOSTS = ["localhost", "localhost:*", "127.0.0.1", "127.0.0.1:*", "[::1]:*"]
LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


def home_token(home: Path) -> tuple[str, bool]:
    """This home's token, made (0600) on first use: (the token, whether it was just made)."""
    path = home / TOKEN_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_token(path), False
    except OSError as exc:
        raise UserError(f"{path}: cannot write the MCP token: {exc.strerror or exc}") from None
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(token + "\n")
    return token, True


def _read_token(path: Path) -> str:
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode):
            raise UserError(f"{path}: the MCP token is not a regular file; remove it and start again")
        if info.st_mode & 0o077:
            os.chmod(path, 0o600)  # only its owner may read it
        token = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read the MCP token: {getattr(exc, 'strerror', None) or exc}") from None
    if len(token) < 32:
        raise UserError(f"{path}: not a token rawrag made; remove it and start again to make a new one")
    return token


class OwnerToken:
    """The SDK's TokenVerifier for one static token, compared in constant time."""

    def __init__(self, token: str):
        self._token = token.encode()

    async def verify_token(self, token: str) -> Any:
        from mcp.server.auth.provider import AccessToken

        if hmac.compare_digest(token.encode(errors="surrogateescape"), self._token):
            return AccessToken(token=token, client_id="owner", scopes=[])
        return None


def auth_for(token: str, port: int) -> dict[str, Any]:
    """What MCPServer takes to require ``token`` (the issuer URL is never fetched: there is no OAuth here)."""
    from mcp.server.auth.settings import AuthSettings
    from pydantic import AnyHttpUrl

    return {"token_verifier": OwnerToken(token),
            "auth": AuthSettings(issuer_url=AnyHttpUrl(f"http://127.0.0.1:{port}"), resource_server_url=None)}


def client_config(url: str, token: str, token_path: Path) -> str:
    """What `rawrag mcp --http` prints: the URL and header for the common MCP clients."""
    header = {"Authorization": f"Bearer {token}"}
    return "\n".join([
        f"rawrag MCP server at {url} (127.0.0.1 only); every request needs this home's token "
        f"(in {token_path}, 0600):",
        "",
        "Claude Code:",
        f"  claude mcp add --transport http rawrag {url} --header \"Authorization: Bearer {token}\"",
        "Cursor (~/.cursor/mcp.json):",
        "  " + json.dumps({"mcpServers": {"rawrag": {"url": url, "headers": header}}}),
        "VS Code (.vscode/mcp.json):",
        "  " + json.dumps({"servers": {"rawrag": {"type": "http", "url": url, "headers": header}}}),
        "",
        "Stop with Ctrl-C.",
    ])


def private_socket(path: Path) -> socket.socket:
    """A listening Unix socket at ``path``, 0600 from the moment it exists (connecting needs write
    permission on it); a folder made for it is 0700. An existing folder keeps its mode (``/tmp``, say)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise UserError(f"{path.parent}: cannot make the socket's folder: {exc.strerror or exc}") from None
    if path.is_symlink() or path.exists():
        if not stat.S_ISSOCK(path.lstat().st_mode):
            raise UserError(f"{path}: exists and is not a socket; choose another --socket path")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                probe.connect(str(path))
                raise UserError(f"{path}: another server is listening there; stop it or choose another path")
            except OSError:
                path.unlink()  # left by a server that stopped without cleaning up
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o177)  # born 0600: never a moment when others could connect
    try:
        sock.bind(str(path))
    except OSError as exc:
        sock.close()
        raise UserError(f"{path}: cannot listen there: {exc.strerror or exc}") from None
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    return sock


def loopback_socket(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as exc:
        sock.close()
        raise UserError(f"--port {port}: cannot listen on 127.0.0.1:{port}: {exc.strerror}; "
                        "choose another port") from None
    return sock


def serve_on(app: Any, sock: socket.socket) -> None:
    """Serve the ASGI ``app`` on ``sock`` until Ctrl-C or SIGTERM (uvicorn, as the SDK's own runner);
    a Unix socket's file is removed once the server has shut down (before uvicorn re-raises the signal)."""
    import uvicorn

    path = sock.getsockname() if sock.family == getattr(socket, "AF_UNIX", None) else None  # (none on Windows)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            try:
                await super().shutdown(sockets)
            finally:
                if path:
                    with contextlib.suppress(OSError):
                        os.unlink(path)

    try:
        Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    finally:
        sock.close()
