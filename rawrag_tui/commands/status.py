"""rawrag status: what is stored, where, how fresh the index is, which models."""

from __future__ import annotations

import argparse

from .common import add_common, open_memory, print_json


def register(sub) -> None:
    p = sub.add_parser("status", help="counts, pending embeddings, profile, data location")
    add_common(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        info = mem.status()
    if args.json:
        print_json(info)
        return 0
    print(f"home        {info['home']}")
    print(f"database    {info['database']} ({info['database_bytes']:,} bytes)")
    enc = info["encryption"]
    kept = f"is in the keyring ({enc.get('keyring')})" if enc.get("keyring") else "is asked (or RAWRAG_PASSPHRASE)"
    print("encrypted   " + (f"yes, {enc['cipher']}; the passphrase {kept}" if enc["encrypted"] else
                            "no (`rawrag encrypt` encrypts it in place)"))
    print(f"profile     {info['profile']}  ({info['embedding_fingerprint'] or 'nothing embedded yet'})")
    device = info["device"]
    print(f"device      {device['device'] or 'none'}: {device['reason']} ({device['intra_op_threads']} threads)")
    print(f"sources     {info['sources']:,}")
    print(f"convers.    {info['conversations']:,}")
    print(f"messages    {info['messages']:,}")
    print(f"windows     {info['windows']:,}  ({info['pending_embeddings']:,} pending embedding)")
    last = info["last_sync"]
    print("last sync   " + (f"{last['at']}: {last['added']:,} messages added from {last['files_read']:,} files, "
                             f"{last['failed_count']} failed" if last else "never (`rawrag sync`)"))
    for line in (last or {}).get("failed", []):
        print(f"  failed: {line}")
    return 0
