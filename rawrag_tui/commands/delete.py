"""rawrag delete: remove a conversation or a whole import, leaving no bytes behind."""

from __future__ import annotations

import argparse
import sys

from ..errors import UserError
from .common import add_common, open_memory, print_json


def register(sub) -> None:
    p = sub.add_parser("delete", help="delete a conversation or a source (an import) for good")
    add_common(p)
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--conversation", type=int, metavar="ID")
    target.add_argument("--source", type=int, metavar="ID")
    p.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    p.set_defaults(func=run)


def _confirm(question: str) -> bool:
    if not sys.stdin.isatty():
        raise UserError("refusing to delete without confirmation: pass --yes")
    answer = input(question + " [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def run(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        if args.conversation is not None:
            conv = mem.conversation(args.conversation)
            if conv is None:
                raise UserError(f"no conversation with id {args.conversation}")
            what = f"conversation {conv['id']} {conv['title']!r} ({conv['messages']} messages)"
        else:
            src = next((s for s in mem.sources() if s["id"] == args.source), None)
            if src is None:
                raise UserError(f"no source with id {args.source}")
            what = f"source {src['id']} ({src['format']} {src['path']}, {src['messages']} messages)"
        if not args.yes and not _confirm(f"Delete {what}? This cannot be undone."):
            print("nothing deleted")
            return 0
        if args.conversation is not None:
            removed = mem.delete_conversation(args.conversation)
        else:
            removed = mem.delete_source(args.source)
    if args.json:
        print_json({"deleted": what, **removed})
    else:
        print(f"deleted {what}")
    if not removed["erased"]:
        print("rawrag: another rawrag (the app, an MCP server) has the store open, so the deleted text stays on "
              "disk until it closes; close it, and the next rawrag command erases it", file=sys.stderr)
    return 0
