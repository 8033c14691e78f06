"""rawrag decrypt: the encrypted store back to a plain one, in place."""

from __future__ import annotations

import argparse

from .. import toolkit
from .common import ProgressPrinter, add_common, print_json


def register(sub) -> None:
    p = sub.add_parser("decrypt", help="turn an encrypted store back into a plain one, in place")
    add_common(p)
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    progress = ProgressPrinter(enabled=not args.quiet)
    done = toolkit.decrypt_home(args.home, progress)
    progress.finish()
    if args.json:
        print_json(done)
    else:
        print(f"decrypted {done['home']}: the store is plain SQLite again, and no passphrase is kept for it")
    return 0
