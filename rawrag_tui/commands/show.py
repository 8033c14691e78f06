"""``rawrag show CONVERSATION``: a conversation, or the messages around one, as the app shows them."""

from __future__ import annotations

import argparse

from ..display import format_timestamp
from ..errors import UserError
from .common import add_common, open_memory, print_json


def register(sub) -> None:
    p = sub.add_parser("show", help="print a conversation, or the messages around one",
                       description="Print a conversation (its id or title), or --context messages each side "
                                   "of the message whose export id is --around.")
    add_common(p)
    p.add_argument("conversation", metavar="CONVERSATION", help="a conversation id or title")
    p.add_argument("--around", metavar="EXTERNAL_ID", help="the message's id in the export (as search shows it)")
    p.add_argument("--context", type=int, default=10, metavar="N", help="messages each side of --around (default 10)")
    p.set_defaults(func=run)


def print_message(m: dict, focus: bool = False) -> None:
    branch = "  (other branch)" if not m["on_main_branch"] else ""
    mark = ">" if focus else " "
    print(f"{mark} {m['speaker'] or '?'}  {format_timestamp(m['timestamp'])}  {m['external_id']}{branch}")
    for line in (m["text"] or "").split("\n"):
        print(f"      {line}".rstrip())
    for caption in m["captions"]:
        print(f"      [image] {caption}")
    for attachment in m["attachments"]:
        print(f"      [attachment] {attachment}")
    print()


def run(args: argparse.Namespace) -> int:
    if args.context < 0:
        raise UserError("--context must be 0 or more")
    with open_memory(args) as mem:
        section = mem.show(args.conversation, args.around, args.context)
    if args.json:
        print_json({"conversation_id": section.conversation_id, "conversation": section.title,
                    "kind": section.kind, "around": args.around, "messages": section.messages})
        return 0
    print(f"{section.title}  (conversation {section.conversation_id}, {section.kind}, "
          f"{len(section.messages)} messages{' shown' if args.around else ''})")
    print()
    for m in section.messages:
        print_message(m, focus=args.around is not None and m["external_id"] == args.around)
    return 0
