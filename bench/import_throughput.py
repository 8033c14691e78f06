"""Parse throughput and peak memory of the importers on generated exports.

Generates, in a temporary folder, a Slack workspace export of 100k messages
and a ChatGPT export of 10k conversations (about 10 messages each, one
``conversations.json``), then parses each in a fresh child process and
reports messages per second and peak resident memory (``ru_maxrss``), next
to a reference in the same child: the bare JSON decoding of the same files
(``json.loads`` per Slack day file; ijson item iteration for ChatGPT), so
the ratio says what our conversion costs on top of reading JSON at all.

A Telegram Desktop ``result.json`` of 100 chats of 1,000 messages is
measured the same way. For ChatGPT and Telegram a second export a fifth of
the size shows whether peak memory grows with the file (it should not: both
are streamed one conversation at a time).

The four agent and assistant logs are measured the same way, each against
bare JSON decoding of the same bytes (``json.loads`` per line for the JSONL
logs, ijson item iteration for the JSON arrays): a folder of Claude Code
sessions (each turn: a prompt, an answer streamed over two lines, a tool
call and its result), a folder of Codex rollouts (display events plus their
``response_item`` mirrors), a Gemini Takeout ``MyActivity.json`` (10 records
per chat, answers as HTML) and an Open WebUI export (history trees with a
regenerated answer and a reasoning block in every chat).

    python bench/import_throughput.py [--slack-messages N] [--chatgpt-conversations N]
                                      [--telegram-chats N] [--claude-code-sessions N]
                                      [--codex-sessions N] [--gemini-records N]
                                      [--open-webui-chats N] [--only FORMAT ...] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = (
    "the a we should ship deploy review meeting lunch tomorrow budget plan draft bug fix test "
    "release notes design api database index query slow fast memory cache retry timeout user "
    "customer ticket urgent later thanks sure maybe friday monday call doc link update"
).split()


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


# -- generators -------------------------------------------------------------------


def make_slack(folder: Path, messages: int, channels: int = 20, seed: int = 1) -> int:
    """A workspace export: `channels` channels, day files of ~100 messages, threads."""
    rng = random.Random(seed)
    users = [
        {"id": f"U{i:04d}", "name": f"user{i}", "profile": {"display_name": f"User {i}", "real_name": f"User {i}"}}
        for i in range(200)
    ]
    folder.mkdir(parents=True)
    (folder / "users.json").write_text(json.dumps(users))
    chans = [{"id": f"C{i:04d}", "name": f"channel-{i}", "members": []} for i in range(channels)]
    (folder / "channels.json").write_text(json.dumps(chans))
    per_channel = messages // channels
    per_day = 100
    written = 0
    for chan in chans:
        base = 1_700_000_000 + rng.randint(0, 1000)
        chan_dir = folder / chan["name"]
        chan_dir.mkdir()
        parents: list[str] = []
        for day in range(0, per_channel, per_day):
            batch = []
            for k in range(min(per_day, per_channel - day)):
                ts = f"{base + (day + k) * 60}.{rng.randint(0, 999999):06d}"
                user = rng.choice(users)["id"]
                text = sentence(rng, rng.randint(4, 30))
                if rng.random() < 0.2:
                    text += (f" <@{rng.choice(users)['id']}> see <https://example.org/{rng.randint(1, 999)}|the doc>"
                             " &amp; more")
                msg = {"type": "message", "user": user, "text": text, "ts": ts}
                if parents and rng.random() < 0.25:
                    msg["thread_ts"] = rng.choice(parents[-20:])
                elif rng.random() < 0.1:
                    msg["thread_ts"] = ts
                    parents.append(ts)
                batch.append(msg)
                written += 1
            date = time.strftime("%Y-%m-%d", time.gmtime(base + (day // per_day) * 86400))
            (chan_dir / f"{date}.json").write_text(json.dumps(batch, indent=1))
    return written


def make_chatgpt(folder: Path, conversations: int, seed: int = 2) -> int:
    """One conversations.json of `conversations` trees, some with a regenerated branch."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    written = 0
    with open(folder / "conversations.json", "w") as fh:
        fh.write("[")
        for i in range(conversations):
            t = 1_700_000_000.0 + i * 3600
            mapping = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
            prev = "root"
            turns = rng.randint(3, 7)
            for j in range(turns * 2):
                nid = f"c{i}-n{j}"
                role = "user" if j % 2 == 0 else "assistant"
                text = sentence(rng, rng.randint(5, 25) if role == "user" else rng.randint(30, 120))
                mapping[prev]["children"].append(nid)
                mapping[nid] = {
                    "id": nid,
                    "parent": prev,
                    "children": [],
                    "message": {
                        "id": nid,
                        "author": {"role": role, "name": None, "metadata": {}},
                        "create_time": t + j,
                        "update_time": None,
                        "content": {"content_type": "text", "parts": [text]},
                        "status": "finished_successfully",
                        "metadata": {"model_slug": "gpt-4o"} if role == "assistant" else {},
                        "recipient": "all",
                    },
                }
                written += 1
                prev = nid
            conv = {
                "title": f"Conversation {i}",
                "create_time": t,
                "update_time": t + 100,
                "mapping": mapping,
                "current_node": prev,
                "conversation_id": f"conv-{i:06d}",
                "id": f"conv-{i:06d}",
            }
            fh.write(("," if i else "") + json.dumps(conv))
        fh.write("]")
    return written


def make_telegram(folder: Path, chats: int, per_chat: int = 1000, seed: int = 3) -> int:
    """A full Telegram Desktop export: one result.json with `chats` chats."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    written = 0
    with open(folder / "result.json", "w") as fh:
        fh.write('{"about": "bench", "personal_information": {"user_id": 1, "first_name": "Me"}, '
                 '"chats": {"about": "", "list": [')
        for i in range(chats):
            messages = []
            for j in range(per_chat):
                unix = 1_700_000_000 + i * 100_000 + j * 60
                messages.append({
                    "id": j + 1, "type": "message", "date": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(unix)),
                    "date_unixtime": str(unix), "from": f"Person {j % 3}", "from_id": f"user{j % 3}",
                    "text": sentence(rng, rng.randint(4, 30)) if j % 10 else ["see ", {"type": "link", "text": "https://example.org"}],
                })
                written += 1
            chat = {"name": f"Chat {i}", "type": "personal_chat", "id": 10_000 + i, "messages": messages}
            fh.write(("," if i else "") + json.dumps(chat))
        fh.write("]}}")
    return written


def _cc_line(sid: str, when: int, parent: str | None, kind: str, uid: str, message: dict, **extra) -> str:
    row = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": "/home/user/proj",
           "sessionId": sid, "version": "2.0.14", "type": kind, "uuid": uid,
           "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(when)), "message": message, **extra}
    return json.dumps(row) + "\n"


def make_claude_code(folder: Path, sessions: int, turns: int = 50, seed: int = 4) -> int:
    """`sessions` session logs of `turns` turns; returns the messages a reader keeps (3 per turn)."""
    rng = random.Random(seed)
    model = "claude-sonnet-4-5"
    written = 0
    for i in range(sessions):
        sid = f"{i:08x}-0000-4000-8000-{i:012x}"
        project = folder / f"-home-user-proj{i % 7}"
        project.mkdir(parents=True, exist_ok=True)
        with open(project / f"{sid}.jsonl", "w") as fh:
            parent = None
            for j in range(turns):
                when = 1_700_000_000 + i * 86_400 + j * 60
                u, a1, a2, tr, a3 = (f"{sid}-{j}-{k}" for k in "uabtc")
                mid = f"msg_{i}_{j}"
                prompt = {"role": "user", "content": sentence(rng, rng.randint(5, 25))}
                streamed = {"id": mid, "role": "assistant", "model": model,
                            "content": [{"type": "text", "text": sentence(rng, 20)}]}
                call = {"id": mid, "role": "assistant", "model": model,
                        "content": [{"type": "tool_use", "id": f"t{j}", "name": "Read", "input": {"p": "x"}}]}
                result = {"role": "user",
                          "content": [{"type": "tool_result", "tool_use_id": f"t{j}", "content": sentence(rng, 60)}]}
                answer = {"id": mid + "b", "role": "assistant", "model": model,
                          "content": [{"type": "text", "text": sentence(rng, rng.randint(30, 120))}]}
                fh.write(_cc_line(sid, when, parent, "user", u, prompt))
                fh.write(_cc_line(sid, when + 1, u, "assistant", a1, streamed))
                fh.write(_cc_line(sid, when + 2, a1, "assistant", a2, call))
                fh.write(_cc_line(sid, when + 3, a2, "user", tr, result, toolUseResult={"x": 1}))
                fh.write(_cc_line(sid, when + 4, tr, "assistant", a3, answer))
                parent = a3
                written += 3  # the prompt, the answer streamed over two lines, the answer after the tool
    return written


def make_codex(folder: Path, sessions: int, turns: int = 50, seed: int = 5) -> int:
    """`sessions` rollouts; each turn is written twice (event and response item), as Codex does."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    written = 0
    for i in range(sessions):
        sid = f"019a{i:04x}-0000-7000-8000-{i:012x}"
        base = 1_760_000_000 + i * 86_400

        def env(k: int, kind: str, payload: dict, base: int = base) -> str:
            t = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(base + k))
            return json.dumps({"timestamp": t, "type": kind, "payload": payload}) + "\n"

        with open(folder / f"rollout-2025-10-29T00-00-00-{sid}.jsonl", "w") as fh:
            fh.write(env(0, "session_meta", {"id": sid, "timestamp": "2025-10-29T00:00:00Z", "cwd": "/w"}))
            for j in range(turns):
                q, a = sentence(rng, rng.randint(5, 25)), sentence(rng, rng.randint(30, 120))
                k = j * 10 + 1
                call = {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": f"c{j}"}
                output = {"type": "function_call_output", "call_id": f"c{j}", "output": sentence(rng, 40)}
                fh.write(env(k, "response_item", {"type": "message", "role": "user",
                                                  "content": [{"type": "input_text", "text": q}]}))
                fh.write(env(k, "event_msg", {"type": "user_message", "message": q}))
                fh.write(env(k + 1, "turn_context", {"model": "gpt-5-codex", "cwd": "/w"}))
                fh.write(env(k + 2, "event_msg", {"type": "agent_reasoning", "text": "thinking"}))
                fh.write(env(k + 3, "response_item", call))
                fh.write(env(k + 4, "response_item", output))
                fh.write(env(k + 5, "event_msg", {"type": "agent_message", "message": a, "phase": "final_answer"}))
                fh.write(env(k + 5, "response_item", {"type": "message", "role": "assistant",
                                                      "content": [{"type": "output_text", "text": a}]}))
                fh.write(env(k + 6, "event_msg", {"type": "token_count", "info": None}))
                written += 2
    return written


def make_gemini(folder: Path, records: int, seed: int = 6) -> int:
    """One MyActivity.json of `records` prompts, 10 per chat, newest first; each prompt and answer count."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    with open(folder / "MyActivity.json", "w") as fh:
        fh.write("[")
        for i in reversed(range(records)):
            html = "".join(f"<p>{sentence(rng, rng.randint(10, 40))}</p>" for _ in range(3))
            html += "<ul>" + "".join(f"<li>{sentence(rng, 6)}</li>" for _ in range(3)) + "</ul>"
            rec = {"header": "Gemini Apps", "title": "Prompted " + sentence(rng, rng.randint(5, 25)),
                   "time": time.strftime("%Y-%m-%dT%H:%M:%S.123Z", time.gmtime(1_760_000_000 + i * 60)),
                   "products": ["Gemini Apps"], "activityControls": ["Gemini Apps Activity"],
                   "safeHtmlItem": [{"html": html}],
                   "details": [{"name": "Conversation", "url": f"https://gemini.google.com/app/{i // 10:016x}"}]}
            fh.write(("," if i != records - 1 else "") + json.dumps(rec))
        fh.write("]")
    return 2 * records


def make_open_webui(folder: Path, chats: int, turns: int = 10, seed: int = 7) -> int:
    """An Open WebUI export of `chats` chats; each has one regenerated answer besides its main branch."""
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    written = 0
    with open(folder / "chat-export-1760000000000.json", "w") as fh:
        fh.write("[")
        for i in range(chats):
            messages, parent = {}, None
            for j in range(turns * 2):
                mid = f"{i}-{j}"
                role = "user" if j % 2 == 0 else "assistant"
                content = sentence(rng, rng.randint(5, 25) if role == "user" else rng.randint(30, 120))
                if role == "assistant" and j == 1:
                    content = ('<details type="reasoning" done="true"><summary>Thought</summary>' + sentence(rng, 20)
                               + "</details>\n" + content)
                messages[mid] = {"id": mid, "parentId": parent, "childrenIds": [], "role": role, "content": content,
                                 "timestamp": 1_760_000_000 + i * 3600 + j, "model": "llama3.1:8b", "done": True}
                if parent:
                    messages[parent]["childrenIds"].append(mid)
                parent = mid
                written += 1
            alt = f"{i}-alt"
            messages[alt] = {"id": alt, "parentId": f"{i}-0", "childrenIds": [], "role": "assistant",
                             "content": sentence(rng, 50), "timestamp": 1_760_000_000 + i * 3600 + 99, "done": True}
            messages[f"{i}-0"]["childrenIds"].append(alt)
            written += 1
            row = {"id": f"chat-{i:06d}", "user_id": "u1", "title": f"Chat {i}", "created_at": 1_760_000_000 + i * 3600,
                   "updated_at": 1_760_000_000 + i * 3600 + 100, "archived": False, "meta": {},
                   "chat": {"title": f"Chat {i}", "history": {"currentId": parent, "messages": messages},
                            "messages": []}}
            fh.write(("," if i else "") + json.dumps(row))
        fh.write("]")
    return written


# -- child: one measurement ---------------------------------------------------------


def child(fmt: str, path: str, reference: bool) -> None:
    from rawrag_tui.importers import ExportSource, ParseStats, load

    start, cpu_start = time.perf_counter(), time.process_time()
    if reference:
        n = 0
        if fmt == "slack":
            for p in Path(path).rglob("*.json"):
                data = json.loads(p.read_bytes())
                n += len(data) if isinstance(data, list) else 0
        elif fmt in ("claude_code", "codex"):
            for p in Path(path).rglob("*.jsonl"):
                with open(p, "rb") as fh:
                    for raw in fh:
                        json.loads(raw)
                        n += 1  # lines, not messages: the reference's count is not compared
        elif fmt in ("gemini", "open_webui"):
            import ijson

            for p in Path(path).glob("*.json"):
                with open(p, "rb") as fh:
                    for _ in ijson.items(fh, "item", use_float=True):
                        n += 1
        elif fmt == "telegram":
            import ijson

            with open(Path(path) / "result.json", "rb") as fh:
                for chat in ijson.items(fh, "chats.list.item", use_float=True):
                    n += len(chat["messages"])
        else:
            import ijson

            with open(Path(path) / "conversations.json", "rb") as fh:
                for conv in ijson.items(fh, "item", use_float=True):
                    n += sum(1 for node in conv["mapping"].values() if node["message"])
        convs = 0
    else:
        stats = ParseStats()
        n = convs = 0
        with ExportSource(path) as source:
            for conv in load(fmt).parse(source, stats):
                convs += 1
                n += len(conv.messages)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"messages": n, "conversations": convs, "seconds": elapsed, "cpu": cpu,
                      "peak_mib": peak_kib / 1024}))


def measure(fmt: str, path: Path, reference: bool = False) -> dict:
    cmd = [sys.executable, __file__, "--child", fmt, str(path)] + (["--reference"] if reference else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def report(label: str, ours: dict, ref: dict) -> None:
    """Wall and CPU time both: on a shared machine wall time waits for others."""
    print(
        f"{label}: {ours['messages']:,} messages in {ours['conversations']:,} conversations; "
        f"wall {ours['seconds']:.2f} s = {ours['messages'] / ours['seconds']:,.0f} messages/s, "
        f"CPU {ours['cpu']:.2f} s = {ours['messages'] / ours['cpu']:,.0f} messages/s; "
        f"peak RSS {ours['peak_mib']:.0f} MiB\n"
        f"  reference (JSON decoding only): CPU {ref['cpu']:.2f} s, peak RSS {ref['peak_mib']:.0f} MiB; "
        f"parse/reference CPU x{ours['cpu'] / ref['cpu']:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slack-messages", type=int, default=100_000)
    parser.add_argument("--chatgpt-conversations", type=int, default=10_000)
    parser.add_argument("--telegram-chats", type=int, default=100, help="of 1,000 messages each")
    parser.add_argument("--claude-code-sessions", type=int, default=200, help="of 50 turns each")
    parser.add_argument("--codex-sessions", type=int, default=200, help="of 50 turns each")
    parser.add_argument("--gemini-records", type=int, default=20_000)
    parser.add_argument("--open-webui-chats", type=int, default=2_000, help="of 21 messages each")
    parser.add_argument("--only", nargs="+", metavar="FORMAT", help="measure only these formats")
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    parser.add_argument("--child", nargs=2, metavar=("FORMAT", "PATH"), help=argparse.SUPPRESS)
    parser.add_argument("--reference", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.reference)
        return

    tmp = tempfile.TemporaryDirectory() if args.keep is None else None
    base = Path(tmp.name) if tmp else args.keep
    try:
        baseline = json.loads(
            subprocess.run(
                [sys.executable, "-c",
                 "import resource, json, rawrag_tui.importers.slack, rawrag_tui.importers.chatgpt, ijson;"
                 "print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))"],
                capture_output=True, text=True, check=True, cwd=ROOT,
            ).stdout
        )
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs; "
              f"interpreter + importers baseline RSS {baseline:.0f} MiB")

        def wanted(fmt: str) -> bool:
            return not args.only or fmt in args.only

        new_sources = (
            ("claude_code", make_claude_code, args.claude_code_sessions, "sessions"),
            ("codex", make_codex, args.codex_sessions, "sessions"),
            ("gemini", make_gemini, args.gemini_records, "records"),
            ("open_webui", make_open_webui, args.open_webui_chats, "chats"),
        )
        for fmt, make, count, unit in new_sources:
            if not wanted(fmt):
                continue
            folder = base / fmt
            t = time.perf_counter()
            n = make(folder, count)
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1024**2
            print(f"generated {fmt} export: {count:,} {unit}, {n:,} messages to keep, {size:.0f} MiB, "
                  f"in {time.perf_counter() - t:.1f} s")
            report(fmt, measure(fmt, folder), measure(fmt, folder, reference=True))

        if wanted("slack"):
            t = time.perf_counter()
            n = make_slack(base / "slack", args.slack_messages)
            size = sum(p.stat().st_size for p in (base / "slack").rglob("*")) / 1024**2
            print(f"generated Slack export: {n:,} messages, {size:.0f} MiB, in {time.perf_counter() - t:.1f} s")
            report("slack", measure("slack", base / "slack"), measure("slack", base / "slack", reference=True))

        for count in (args.chatgpt_conversations // 5, args.chatgpt_conversations) if wanted("chatgpt") else ():
            folder = base / f"chatgpt-{count}"
            t = time.perf_counter()
            n = make_chatgpt(folder, count)
            size = (folder / "conversations.json").stat().st_size / 1024**2
            print(f"generated ChatGPT export: {count:,} conversations, {n:,} messages, {size:.0f} MiB, "
                  f"in {time.perf_counter() - t:.1f} s")
            report(f"chatgpt ({count:,} conversations)", measure("chatgpt", folder),
                   measure("chatgpt", folder, reference=True))

        for count in (args.telegram_chats // 5, args.telegram_chats) if wanted("telegram") else ():
            folder = base / f"telegram-{count}"
            t = time.perf_counter()
            n = make_telegram(folder, count)
            size = (folder / "result.json").stat().st_size / 1024**2
            print(f"generated Telegram export: {count:,} chats, {n:,} messages, {size:.0f} MiB, "
                  f"in {time.perf_counter() - t:.1f} s")
            report(f"telegram ({count:,} chats)", measure("telegram", folder),
                   measure("telegram", folder, reference=True))
    finally:
        if tmp:
            tmp.cleanup()


if __name__ == "__main__":
    main()
