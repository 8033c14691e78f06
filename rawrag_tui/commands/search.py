"""rawrag search: the retrieval path alone, with its evidence; --batch for many queries."""

from __future__ import annotations

import argparse
import json
import sys

from .. import toolkit
from ..display import message_line
from ..errors import UserError
from ..search.types import SearchResult
from .common import add_common, add_filters, filters_from, open_memory, print_json


def register(sub) -> None:
    p = sub.add_parser("search", help="find the raw messages that match a question")
    add_common(p)
    p.add_argument("query", nargs="?")
    p.add_argument("--mode", choices=toolkit.SEARCH_MODES, help="default: settings retrieval.mode")
    p.add_argument("--limit", type=int, metavar="K", help="windows kept (default 15)")
    p.add_argument("--candidates", type=int, metavar="N", help="recall depth per channel (default 128)")
    p.add_argument("--batch", metavar="FILE",
                   help='JSON lines {"id","query"} from FILE or - (stdin); one JSON line out per query')
    p.add_argument("--explain", action="store_true", help="show each hit's score and rank per channel")
    add_filters(p)
    p.set_defaults(func=run)


def _positive(value: int | None, name: str) -> None:
    if value is not None and value < 1:
        raise UserError(f"--{name} must be at least 1")


def _batch_queries(source: str):
    stream = sys.stdin if source == "-" else None
    if stream is None:
        try:
            stream = open(source, encoding="utf-8")  # noqa: SIM115 (the `with stream` below closes it)
        except OSError as exc:
            raise UserError(f"{source}: cannot read: {exc.strerror}") from None
    with stream:
        for lineno, raw in enumerate(stream, start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise UserError(f"{source}: line {lineno}: invalid JSON: {exc.msg}") from None
            if not isinstance(obj, dict) or not isinstance(obj.get("query"), str):
                raise UserError(f"{source}: line {lineno}: expected an object with a string 'query'")
            yield obj.get("id", lineno), obj["query"]


def print_result(result: SearchResult, explain: bool) -> None:
    summary = result.summary()
    if summary:
        print(summary)
    elif not result.hits:
        print("no matches")
    for hit in result.hits:
        head = f"#{hit.rank}  {hit.conversation}  (window {hit.window_id})"
        if hit.match == "meaning" and result.words_found is not None:
            head += "  [by meaning]"
        if explain:
            parts = [f"{name} {hit.scores[name]:.4f}" + (f" rank {hit.ranks[name]}" if name in hit.ranks else "")
                     for name in ("dense", "lexical", "fused", "rerank") if name in hit.scores]
            head += "\n    " + " | ".join(parts)
        print(head)
        for m in hit.messages:
            line = message_line(m.timestamp, m.speaker, m.text, m.captions)
            print(f"    {m.external_id}  {line if len(line) < 300 else line[:297] + '...'}")
    for note in result.notes:
        print(f"note: {note}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    _positive(args.limit, "limit")
    _positive(args.candidates, "candidates")
    if args.batch is None and not args.query:
        raise UserError("give a query, or --batch FILE")
    as_json = args.json
    filters = filters_from(args)
    with open_memory(args) as mem:
        hint = mem.empty_hint()
        if hint:
            raise UserError(hint)
        if args.batch is not None:
            if not as_json:
                raise UserError("--batch writes JSON lines: add --json")
            for qid, query in _batch_queries(args.batch):
                result = mem.search(query, mode=args.mode, limit=args.limit, candidates=args.candidates,
                                    filters=filters)
                print_json({"id": qid, **result.to_json()})
            return 0
        result = mem.search(args.query, mode=args.mode, limit=args.limit, candidates=args.candidates,
                            filters=filters)
    if as_json:
        print_json(result.to_json())  # nothing found: "hits": [], and the one line on stderr
        if not result.hits:
            print(result.summary() or "no matches", file=sys.stderr)
    else:
        print_result(result, args.explain)
    return 0
