"""``rawrag export``: a conversation, a source or a search's hits as Markdown, HTML or JSON lines.

The HTML is one self-contained file (no script, no link outside it) that
reads offline. A file is written readable by its owner only (0600).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import UserError
from .common import add_common, add_filters, filters_from, open_memory

FORMATS = ("md", "html", "jsonl")
SUFFIXES = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def register(sub) -> None:
    p = sub.add_parser("export", help="write a conversation, a source or a search's hits to a file",
                       description="Write a conversation, a whole source, or a search's hits (with the filters) "
                                   "as Markdown, one offline HTML file, or JSON lines.")
    add_common(p, json_flag=False)
    p.add_argument("--search", metavar="QUERY", help="the messages a search keeps, with the filters below")
    p.add_argument("--format", choices=FORMATS, help="default: from -o's suffix, else md")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (mode 0600) instead of stdout")
    p.add_argument("--mode", choices=("dense", "lexical", "hybrid"), help="search mode for --search")
    p.add_argument("--limit", type=int, metavar="K", help="windows a --search keeps (default 15)")
    # without --search, --conversation or --source (one of them) is what is exported: all of it,
    # or the messages of it that pass --after, --before, --speaker and --kind
    add_filters(p)
    p.set_defaults(func=run)


def write_private(path: str, text: str, *, replace: bool = True) -> None:
    """Write ``text`` to ``path`` readable by its owner only, whatever the umask or an older file's mode.

    ``replace=False`` never touches a file that is already there (FileExistsError): the app asks
    before replacing one, and a file that appeared since it asked is not silently overwritten."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if replace else os.O_EXCL)
    fd = os.open(path, flags, 0o600)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            fd = -1
            out.write(text)
    finally:
        if fd >= 0:
            os.close(fd)


def run(args: argparse.Namespace) -> int:
    fmt = args.format or (SUFFIXES.get(os.path.splitext(args.output)[1].lower(), "md") if args.output else "md")
    if args.search is not None and not args.search.strip():
        raise UserError("--search: the query is empty")
    filters = filters_from(args)
    with open_memory(args) as mem:
        if args.search is not None:
            text, count = mem.export(fmt, query=args.search, filters=filters, mode=args.mode, limit=args.limit)
        else:  # --after, --before, --speaker and --kind keep the messages of it that pass them
            narrowed = filters.speakers or filters.after or filters.before or filters.kind
            text, count = mem.export(fmt, conversation=args.conversation, source=args.source,
                                     filters=filters if narrowed else None)
    if args.output:
        try:
            write_private(args.output, text)
        except OSError as exc:
            raise UserError(f"{args.output}: cannot write: {exc.strerror}") from None
        print(f"wrote {count:,} messages to {args.output} ({fmt})", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
