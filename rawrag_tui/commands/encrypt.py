"""rawrag encrypt: encrypt an existing store in place (a checked copy renamed over it)."""

from __future__ import annotations

import argparse

from .. import toolkit
from .common import ProgressPrinter, add_common, print_json
from .init import passphrase_note


def register(sub) -> None:
    p = sub.add_parser("encrypt", help="encrypt the store in place (killed midway, the old one is intact)")
    add_common(p)
    p.add_argument("--no-keyring", action="store_true", help="do not keep the passphrase in the OS keyring")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    progress = ProgressPrinter(enabled=not args.quiet)
    done = toolkit.encrypt_home(args.home, progress, keyring=not args.no_keyring)
    progress.finish()
    if args.json:
        print_json(done)
    else:
        print(f"encrypted {done['home']} ({done['cipher']})")
        print(passphrase_note(done))
    return 0
