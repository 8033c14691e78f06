"""rawrag init: a new home, its store encrypted from the first page with --encrypt."""

from __future__ import annotations

import argparse

from .. import toolkit
from .common import add_common, print_json


def register(sub) -> None:
    p = sub.add_parser("init", help="make a new home (--encrypt: an encrypted store)")
    add_common(p)
    p.add_argument("--encrypt", action="store_true",
                   help="encrypt the store (passphrase: RAWRAG_PASSPHRASE, or asked twice on the terminal)")
    p.add_argument("--no-keyring", action="store_true",
                   help="do not keep the passphrase in the OS keyring (it is then asked for, or read from "
                        "RAWRAG_PASSPHRASE, by every rawrag that opens the store)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    done = toolkit.init_home(args.home, encrypt=args.encrypt, keyring=not args.no_keyring)
    if args.json:
        print_json(done)
    elif not done["created"]:
        print(f"{done['home']} has a store already ({'encrypted' if done['encrypted'] else 'not encrypted'})")
    else:
        print(f"made {done['home']}" + (f", encrypted ({done['cipher']})" if done["encrypted"] else ""))
        if done["encrypted"]:
            print(passphrase_note(done))
    return 0


def passphrase_note(done: dict) -> str:
    """Where the passphrase will come from next time, and that nothing recovers a lost one."""
    if done.get("keyring"):
        return (f"the passphrase is kept in your keyring ({done['keyring']}): rawrag will not ask for it on this "
                "account. Keep a copy too: without it the history cannot be read")
    return ("rawrag asks for the passphrase on a terminal (or reads RAWRAG_PASSPHRASE). Keep it safe: "
            "without it the history cannot be read")
