"""`rawrag models`: list, pull, export, embed, rerank, use.

Thin: the work is behind Memory's model calls (which keep rawrag_tui/models/
out of the faces); this module parses arguments and prints. ModelError is a
UserError: cli.py prints it as one line, exit 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import toolkit


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("models", help="list, pull, export and try models")
    sub = parser.add_subparsers(dest="models_command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("list", help="profiles, roles, and what is on this machine")
    # SUPPRESS: do not overwrite a top-level --json with this parser's default
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")

    p = sub.add_parser("pull", help="download a profile's models, or a hub repo, with checksums")
    p.add_argument("target", metavar="PROFILE|REPO", help="qwen3-0.6b, qwen3-4b, or owner/name")
    p.add_argument("--include", action="append", metavar="GLOB", help="only files matching (repos; repeatable)")
    p.add_argument("--revision", default="main")

    p = sub.add_parser("export", help="export a Hugging Face checkpoint to ONNX (needs the export extra)")
    p.add_argument("hf_dir", metavar="HF_DIR")
    p.add_argument("--role", choices=["embed", "rerank"], required=True)
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--quantize", choices=["int8"], default=None)
    p.add_argument("--model-id", default=None, help="the id recorded in fingerprints (default: from config.json)")

    p = sub.add_parser("embed", help="embed texts with an exported model; prints JSON")
    p.add_argument("--model", required=True, metavar="DIR", help="a directory made by `models export`")
    p.add_argument("--kind", choices=["query", "document"], default="document")
    p.add_argument("--instruction", default=None, help="Qwen3 query task text")
    p.add_argument("--dims", type=int, default=None, help="keep the leading N dimensions (Matryoshka)")
    p.add_argument("texts", nargs="+", metavar="TEXT")

    p = sub.add_parser("rerank", help="score documents for a query with an exported model; prints JSON")
    p.add_argument("--model", required=True, metavar="DIR")
    p.add_argument("--instruction", default=None, help="Qwen3 reranker instruction")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("docs", nargs="+", metavar="DOC")

    p = sub.add_parser("use", help="make a profile the active one (writes config.toml)")
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument("--force", action="store_true", help="even if its models are not pulled yet")
    p.add_argument("--no-embed", action="store_true", help="switch only; embed later with `rawrag index`")

    parser.set_defaults(func=run)


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


def _list(args: argparse.Namespace) -> int:
    listing = toolkit.model_list(args.home)
    if args.json:
        _print_json(listing)
        return 0
    print(f"models in {listing['models_dir']}; active profile: {listing['active']}")
    print(listing["runtime"])
    for profile in listing["profiles"]:
        mark = "*" if profile["profile"] == listing["active"] else " "
        print(f"{mark} {profile['profile']}: {profile['description']}")
        for name, role in profile["roles"].items():
            state = "ready" if role["present"] else ("not pulled" if role["source"] == "hub" else "not installed")
            what = role["repo"] or "-"
            main = next((f["path"] for f in role["files"]), "")
            print(f"    {name:<7} {role['kind']:<13} {state:<13} {what}{' ' + main if main else ''}")
    return 0


def _pull(args: argparse.Namespace) -> int:
    records = toolkit.model_pull(
        args.target,
        args.home,
        include=args.include,
        revision=args.revision,
        progress=lambda line: print(line, file=sys.stderr),
    )
    if args.json:
        _print_json({"pulled": records})
    else:
        total = sum(r["size"] for r in records)
        print(f"{len(records)} file(s), {total:,} bytes, all verified")
    return 0


def _export(args: argparse.Namespace) -> int:
    manifest = toolkit.model_export(args.hf_dir, args.role, args.out, quantize=args.quantize, model_id=args.model_id)
    if args.json:
        _print_json(manifest)
    else:
        size = sum(f["size"] for f in manifest["files"].values())
        print(f"{args.out}: {manifest['kind']} ({manifest['onnx']}, {size:,} bytes) in {manifest['export_seconds']} s")
    return 0


def _embed(args: argparse.Namespace) -> int:
    options: dict[str, Any] = {}
    if args.instruction:
        options["task"] = args.instruction
    if args.dims:
        options["dims"] = args.dims
    embedder = toolkit.model_open(args.model, "embed", args.home, **options)
    vectors = embedder.embed(args.texts, kind=args.kind)
    _print_json({"dims": int(vectors.shape[1]), "fingerprint": embedder.fingerprint, "vectors": vectors.tolist()})
    return 0


def _rerank(args: argparse.Namespace) -> int:
    options = {"instruction": args.instruction} if args.instruction else {}
    reranker = toolkit.model_open(args.model, "rerank", args.home, **options)
    _print_json({"scores": reranker.score(args.query, args.docs)})
    return 0


def _use(args: argparse.Namespace) -> int:
    path, missing = toolkit.model_use(args.profile, args.home, force=args.force)
    print(f"{path}: [models] profile = {args.profile!r}")
    if args.no_embed or missing:
        print("run `rawrag index` to embed for its embedder (after `rawrag models pull` if it is missing)")
        return 0
    # Embed what the new profile's fingerprint lacks; texts it already has are kept.
    from .common import ProgressPrinter, open_memory

    progress = ProgressPrinter()
    with open_memory(args) as mem:
        done = mem.index(progress)
    progress.finish()
    print(f"{done['embedded']} windows embedded for profile {args.profile!r}")
    return 0


COMMANDS = {"list": _list, "pull": _pull, "export": _export, "embed": _embed, "rerank": _rerank, "use": _use}


def run(args: argparse.Namespace) -> int:
    return COMMANDS[args.models_command](args)
