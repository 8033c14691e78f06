"""rawrag rekey: the encrypted store under a new passphrase; the old one opens nothing after."""

from __future__ import annotations

import argparse

from .. import toolkit
from .common import ProgressPrinter, add_common, print_json
from .init import passphrase_note


def register(sub) -> None:
    p = sub.add_parser("rekey", help="change an encrypted store's passphrase (new one: asked twice, or "
                                     "RAWRAG_NEW_PASSPHRASE)")
    add_common(p)
    p.add_argument("--no-keyring", action="store_true", help="do not keep the new passphrase in the OS keyring")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    progress = ProgressPrinter(enabled=not args.quiet)
    done = toolkit.rekey_home(args.home, progress, keyring=not args.no_keyring)
    progress.finish()
    if args.json:
        print_json(done)
    else:
        print(f"rekeyed {done['home']}: the old passphrase no longer opens it")
        print(passphrase_note(done))
    return 0
