"""A LoCoMo-shaped changed-facts sample as a ChatGPT export: one thread per session.

``bench/data/changed-facts-assistant.json`` is written in LoCoMo's shape so the
repository's loader and the scorer read it like the other sets; a user's
ChatGPT history is a ``conversations.json`` of threads, each with its own
title and message tree, "user" and "assistant" turns. The benchmark imports
this instead, so the real ChatGPT importer reads it (roles, one conversation
per thread, send times to the second) and the answer path sees what a user's
export gives it.

    python bench/chatgpt_export.py bench/data/changed-facts-assistant.json /tmp/export   # writes conversations.json
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # run as a script from bench/, as the other benchmarks are

from rawrag_tui.importers.locomo import parse_session_date  # noqa: E402

#: The LoCoMo speaker names that are the assistant's turns.
ASSISTANTS = {"ChatGPT"}
#: Seconds between two turns of a thread.
TURN_SECONDS = 40


def session_time(text: str) -> dt.datetime:
    """A LoCoMo session date (as the LoCoMo importer reads it), in UTC."""
    return parse_session_date(text).replace(tzinfo=dt.UTC)


def threads(sample: dict) -> list[dict]:
    """Each session of ``sample`` as one ChatGPT conversation (a linear message tree)."""
    conv = sample["conversation"]
    out = []
    number = 1
    while f"session_{number}" in conv:
        start = session_time(conv[f"session_{number}_date_time"]).timestamp()
        mapping: dict[str, dict] = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
        parent = "root"
        for index, turn in enumerate(conv[f"session_{number}"]):
            node = f"{sample['sample_id']}-{number}-{index}"
            role = "assistant" if turn["speaker"] in ASSISTANTS else "user"
            mapping[node] = {"id": node, "parent": parent, "children": [], "message": {
                "id": node, "author": {"role": role, "name": None, "metadata": {}},
                "create_time": start + TURN_SECONDS * index, "update_time": None,
                "content": {"content_type": "text", "parts": [turn["text"]]},
                "status": "finished_successfully", "end_turn": True, "weight": 1.0,
                "metadata": {"model_slug": "gpt-4o"} if role == "assistant" else {},
                "recipient": "all", "channel": None}}
            mapping[parent]["children"].append(node)
            parent = node
        first = conv[f"session_{number}"][0]["text"]
        out.append({"title": " ".join(first.split()[:6]), "create_time": start,
                    "update_time": start + TURN_SECONDS * len(conv[f"session_{number}"]),
                    "mapping": mapping, "current_node": parent, "id": f"{sample['sample_id']}-{number}",
                    "conversation_id": f"{sample['sample_id']}-{number}"})
        number += 1
    return out


def write_export(data: Path, folder: Path) -> Path:
    """``data``'s samples as ``folder/conversations.json``; the folder, for ``Memory.import_path``."""
    samples = json.loads(data.read_text(encoding="utf-8"))
    folder.mkdir(parents=True, exist_ok=True)
    conversations = [c for s in samples for c in threads(s)]
    (folder / "conversations.json").write_text(json.dumps(conversations, ensure_ascii=False), encoding="utf-8")
    return folder


if __name__ == "__main__":
    print(write_export(Path(sys.argv[1]), Path(sys.argv[2])) / "conversations.json")


def import_set(mem, data: Path) -> None:
    """Import a changed-facts set into ``mem`` as its samples say: as a ChatGPT
    export (``"export": "chatgpt"``), else as the LoCoMo file it is."""
    import tempfile

    samples = json.loads(data.read_text(encoding="utf-8"))
    if not any(s.get("export") == "chatgpt" for s in samples):
        mem.import_path(data, fmt="locomo")
        return
    with tempfile.TemporaryDirectory(prefix="rawrag-chatgpt-export-") as tmp:
        mem.import_path(write_export(data, Path(tmp) / "export"), fmt="chatgpt")
