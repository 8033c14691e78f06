"""``rawrag reader``: which model reads the evidence, the bundled one or a server you run.

``rawrag reader use ollama:qwen3:8b`` (or ``lmstudio:MODEL``,
``http://HOST:PORT/v1 MODEL``, ``bundled``) writes the choice into the
home's config.toml; ``rawrag reader list`` shows the choice and the servers
running on this machine's loopback ports. Thin: the work is in toolkit.
"""

from __future__ import annotations

import argparse
import sys

from .. import toolkit
from .common import add_common, print_json


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "reader", help="choose the reader: the bundled one or an OpenAI-compatible server (Ollama, LM Studio, ...)")
    sub = parser.add_subparsers(dest="reader_command", metavar="COMMAND")
    sub.required = True
    p = sub.add_parser(
        "use", help="read with a server's model, or the bundled reader (writes config.toml)",
        description="Read with MODEL on a server you run: ollama:MODEL, lmstudio:MODEL, llama-server:MODEL, "
                    "or http://HOST:PORT/v1 MODEL; `bundled` goes back. A server not on this machine needs "
                    "--allow-remote: the reader is sent your messages.")
    p.add_argument("spec", metavar="bundled|ollama:MODEL|lmstudio:MODEL|URL")
    p.add_argument("model", nargs="?", metavar="MODEL", help="the model, after a URL")
    p.add_argument("--api-key-env", metavar="NAME", help="the environment variable holding the server's key "
                                                          "(its name is written, never the key)")
    p.add_argument("--allow-remote", action="store_true", help="allow a server that is not on this machine")
    add_common(p)
    p = sub.add_parser("list", help="the reader in use and the servers running on this machine")
    add_common(p)
    add_common(parser)
    parser.set_defaults(func=run)


def _use(args: argparse.Namespace) -> int:
    done = toolkit.reader_use(args.spec, args.model, args.home, api_key_env=args.api_key_env,
                              allow_remote=args.allow_remote)
    if args.json:
        print_json(done)
        return 0
    if done["backend"] == "bundled":
        print(f"{done['config']}: [reader] endpoint = \"\": the bundled reader reads")
        return 0
    print(f"{done['config']}: [reader] endpoint = {done['endpoint']!r}, model = {done['model']!r}")
    check = done["check"]
    if check and check["note"]:
        print(f"note: {check['note']}", file=sys.stderr)
    return 0


def _list(args: argparse.Namespace) -> int:
    current = toolkit.reader_configured(args.home)
    servers = toolkit.reader_servers()
    if args.json:
        print_json({"reader": current, "servers": servers})
        return 0
    where = "this machine (bundled llama.cpp)" if current["endpoint"] == "local" else current["endpoint"]
    print(f"reader: {current['model']} at {where}")
    if not servers:
        print("no reader server on this machine's usual ports (Ollama 11434, LM Studio 1234, llama-server 8080)")
    for found in servers:
        print(f"{found['server']} at {found['endpoint']}: {', '.join(found['models']) or 'no chat model loaded'}")
        for command in found["commands"]:
            print(f"  {command}")
    return 0


def run(args: argparse.Namespace) -> int:
    return {"use": _use, "list": _list}[args.reader_command](args)
