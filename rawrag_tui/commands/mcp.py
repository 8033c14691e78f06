"""`rawrag mcp`: serve this home's memory to MCP clients (stdio, HTTP on 127.0.0.1 with a token, or a Unix socket)."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

from ..errors import UserError
from .common import add_common, open_memory


def register(sub) -> None:
    p = sub.add_parser(
        "mcp", help="serve your history to MCP clients (Claude, Cursor, VS Code...); read-only by default",
        description="Serve this home's memory over the Model Context Protocol: stdio by default (the client "
                    "starts `rawrag mcp`), streamable HTTP on 127.0.0.1 with --http (every request needs this "
                    "home's token, printed with the client settings), or HTTP on a Unix socket with --socket.",
    )
    add_common(p, json_flag=False)
    where = p.add_mutually_exclusive_group()
    where.add_argument("--http", action="store_true",
                       help="serve streamable HTTP on 127.0.0.1 (path /mcp), for this home's token only")
    where.add_argument("--socket", nargs="?", const="", default=None, metavar="PATH",
                       help="serve streamable HTTP on a Unix socket only you can open (default: mcp.sock "
                            "in the home)")
    p.add_argument("--port", type=int, default=8765, help="the HTTP port (default 8765)")
    p.add_argument("--allow-write", action="store_true",
                   help="add the import and delete tools (default: read-only)")
    p.add_argument("--max-tokens", type=int, default=None, metavar="N",
                   help="the most cl100k tokens one tool result may hold (default 4000, at least 500)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ..mcp_server import DEFAULT_BUDGET, MIN_BUDGET, serve
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "mcp":
            raise UserError("the MCP server needs the mcp package, a dependency of rawrag: "
                            "reinstall rawrag (pip install rawrag-tui)") from None
        raise
    if not 1 <= args.port <= 65535:
        raise UserError(f"--port {args.port}: give a port from 1 to 65535")
    budget = DEFAULT_BUDGET if args.max_tokens is None else args.max_tokens
    if budget < MIN_BUDGET:
        raise UserError(f"--max-tokens {budget}: give at least {MIN_BUDGET}")
    if args.http:
        _check_port(args.port)
    with open_memory(args) as mem:
        socket_path = None
        if args.socket is not None:
            from ..mcp_access import SOCKET_FILE

            socket_path = Path(args.socket).expanduser().absolute() if args.socket else mem.settings.home / SOCKET_FILE
        serve(mem, http=args.http, port=args.port, socket_path=socket_path, allow_write=args.allow_write,
              budget=budget, announce=lambda text: print(text, flush=True))
    return 0


def _check_port(port: int) -> None:
    """One line now, instead of the HTTP server's own log line and exit code 3 later."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            raise UserError(f"--port {port}: cannot listen on 127.0.0.1:{port}: {exc.strerror}; "
                            "choose another port") from None
