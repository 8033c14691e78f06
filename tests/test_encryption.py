"""An encrypted store, end to end through the real `rawrag` command: init --encrypt, import, search
and ask work; no word of the imported messages is in any file under the home (database, WAL, the
reader's prompt cache); without the passphrase, or with a wrong one, one line and exit 1.
The keyring path runs with test keyrings (tests/keyring_support.py), never the machine's."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import keyring
import pytest

from rawrag_tui import toolkit
from rawrag_tui.errors import UserError
from rawrag_tui.memory import Memory
from rawrag_tui.storage import encryption, keys
from tests.conftest import REPO, reader_installed, run_cli, write_jsonl
from tests.keyring_support import MemoryKeyring

#: Words no model file, tokenizer or settings file holds: found under the home, they came from the messages.
CANARIES = ("zorbulax", "quintaveld", "mirthwaddle", "plonkathrine")
PASSPHRASE = "correct horse battery staple"
NULL_KEYRING = "keyring.backends.null.Keyring"


@pytest.fixture(autouse=True)
def _no_keys_between_tests(monkeypatch):
    """Each test starts as a fresh process would: nothing remembered, no keyring but the one it sets."""
    monkeypatch.setattr(keys, "_given", {})
    monkeypatch.setattr(keys, "_warned", [])
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", NULL_KEYRING)
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.null.Keyring())  # type: ignore[attr-defined]
    yield
    keyring.set_keyring(previous)


def canary_history(tmp_path: Path, n: int = 24) -> Path:
    rows = [{"conversation": "secret-plans", "title": "Plans", "id": f"m{i}", "timestamp": f"2025-03-01T10:{i:02d}:00Z",
             "speaker": "Kim" if i % 2 else "Ana",
             "text": f"We meet {CANARIES[i % 4].capitalize()} at the harbour, bring the {CANARIES[(i + 1) % 4]} map."}
            for i in range(n)]
    return write_jsonl(tmp_path / "secret.jsonl", rows)


def files_holding_canaries(home: Path) -> list[str]:
    found = []
    for path in sorted(p for p in home.rglob("*") if p.is_file()):
        data = path.read_bytes().lower()
        found += [f"{path.relative_to(home)}: {word}" for word in CANARIES if word.encode() in data]
    return found


def one_line_error(code: int, err: str, expected: str) -> None:
    assert code == 1, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if not line.startswith("rawrag: note:")]
    assert len(lines) == 1 and expected in lines[0], err


def prompt_cache_tokens(kv: Path) -> list[int]:
    """The token ids at the head of llama.cpp's sequence-state file (magic 'ggsq', version, count, ids)."""
    raw = kv.read_bytes()
    magic, _version, count = struct.unpack_from("<III", raw, 0)
    assert magic == 0x67677371, kv
    return list(struct.unpack_from(f"<{count}i", raw, 12))


def test_encrypted_home_end_to_end_through_the_cli(tmp_path, home, monkeypatch):
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    asks = reader_installed()
    if asks:
        from rawrag_tui.models.gguf import TEST_READER, part_paths

        (reader_path,) = part_paths(TEST_READER)
        monkeypatch.setenv("RAWRAG_MODELS_READER_MODEL", str(reader_path))
        monkeypatch.setenv("RAWRAG_READER_ANSWER_TOKENS", "24")  # a few words prove the path; fewer to wait for

    code, out, err = run_cli("init", "--encrypt", home=home)
    assert code == 0, err
    assert "encrypted (chacha20)" in out and "RAWRAG_PASSPHRASE" in err  # the warning about the environment
    code, out, err = run_cli("import", str(canary_history(tmp_path)), home=home)
    assert code == 0, err
    code, out, err = run_cli("--json", "search", "Zorbulax harbour", home=home)
    assert code == 0, err
    hits = json.loads(out)["hits"]
    assert hits and any("Zorbulax" in m["text"] for h in hits for m in h["messages"])
    if asks:
        code, out, err = run_cli("ask", "Where do we meet Zorbulax?", home=home, timeout=900)  # a hang guard
        assert code == 0, err
        assert out.strip()

    assert (home / "rawrag.db").read_bytes()[:16] != encryption.PLAIN_HEADER
    assert files_holding_canaries(home) == []
    if asks:  # the prompt cache: rawrag's fixed instructions only
        from llama_cpp import Llama

        from rawrag_tui.answer.prompts import STYLES, fixed_prefix

        cached = sorted((home / "models" / "prompt-cache").glob("*.kv"))
        assert cached, "ask wrote no prompt cache: the check below would prove nothing"
        vocab = Llama(str(reader_path), vocab_only=True, verbose=False)
        for kv in cached:
            text = vocab.detokenize(prompt_cache_tokens(kv)).decode("utf-8", "replace")
            assert any(fixed_prefix(style).strip()[:60] in text for style in STYLES), text[:300]  # the instructions
            assert not any(word in text.lower() for word in CANARIES), text

    monkeypatch.delenv("RAWRAG_PASSPHRASE")
    code, out, err = run_cli("search", "harbour", home=home, stdin="")
    one_line_error(code, err, "the store is encrypted")
    code, out, err = run_cli("mcp", home=home, stdin="")  # stdio: nobody to ask; the same one line
    one_line_error(code, err, "no passphrase was given")
    monkeypatch.setenv("RAWRAG_PASSPHRASE", "not the passphrase")
    code, out, err = run_cli("search", "harbour", home=home, stdin="")
    one_line_error(code, err, "wrong passphrase or not a rawrag store")


def test_the_keyring_keeps_the_passphrase_for_every_face(tmp_path, home, monkeypatch):
    """In-process with a memory keyring, then a real `rawrag` with a file keyring (keyring's own switch)."""
    ring = MemoryKeyring()
    keyring.set_keyring(ring)
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    done = toolkit.init_home(home, encrypt=True)
    assert done["keyring"] and ring.entries == {("rawrag", str(home.resolve())): PASSPHRASE}
    assert json.loads((home / "rawrag.db.encrypted").read_text())["keyring"] == done["keyring"]
    assert PASSPHRASE not in (home / "rawrag.db.encrypted").read_text()
    monkeypatch.delenv("RAWRAG_PASSPHRASE")
    keys.forget(home / "rawrag.db")
    assert not toolkit.needs_passphrase(home)  # the app would not ask
    with Memory.open(home) as mem:
        mem.import_path(canary_history(tmp_path), embed=False)
    keys.forget(home / "rawrag.db")
    ring.entries[("rawrag", str(home.resolve()))] = "stale"
    assert toolkit.needs_passphrase(home)
    with pytest.raises(UserError, match="wrong passphrase"):
        Memory.open(home)
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)  # a stale entry does not lock the store out
    with Memory.open(home) as mem:
        assert mem.counts()["messages"] == 24

    ring_file = tmp_path / "ring.json"
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "tests.keyring_support.FileKeyring")
    monkeypatch.setenv("RAWRAG_TEST_KEYRING", str(ring_file))
    other = tmp_path / "other-home"
    code, out, err = run_cli("init", "--encrypt", home=other)
    assert code == 0 and "kept in your keyring" in out, err
    monkeypatch.delenv("RAWRAG_PASSPHRASE")
    code, out, err = run_cli("--json", "status", home=other, stdin="")
    assert code == 0, err
    encryption_state = json.loads(out)["encryption"]
    assert encryption_state["encrypted"] and encryption_state["cipher"] == "chacha20" and encryption_state["keyring"]
    assert json.loads(ring_file.read_text()) == {f"rawrag\0{other.resolve()}": PASSPHRASE}


def test_rekey_then_the_old_passphrase_opens_nothing(tmp_path, home, monkeypatch):
    monkeypatch.setenv("RAWRAG_PASSPHRASE", "old passphrase")
    toolkit.init_home(home, encrypt=True)
    with Memory.open(home) as mem:
        mem.import_path(canary_history(tmp_path), embed=False)
    monkeypatch.setenv("RAWRAG_NEW_PASSPHRASE", "new passphrase")
    stages = []
    done = toolkit.rekey_home(home, lambda stage, n, total: stages.append((stage, n, total)))
    assert done["encrypted"] and stages and stages[-1][0] == "rekey" and stages[-1][1] == stages[-1][2]
    keys.forget(home / "rawrag.db")
    with pytest.raises(UserError, match="wrong passphrase or not a rawrag store"):
        Memory.open(home)
    monkeypatch.setenv("RAWRAG_PASSPHRASE", "new passphrase")
    with Memory.open(home) as mem:
        assert mem.counts()["messages"] == 24
    assert files_holding_canaries(home) == []
    assert sorted(p.name for p in home.iterdir() if ".rewrite" in p.name) == []


def test_encrypt_and_decrypt_an_existing_store_in_place(tmp_path, home, open_memory, monkeypatch):
    mem = open_memory()
    mem.import_path(canary_history(tmp_path))
    before = mem.counts()
    with pytest.raises(UserError, match="another rawrag has this store open"):
        toolkit.encrypt_home(home)  # this process's own open store counts too
    mem.close()
    assert files_holding_canaries(home)  # the check below can fail
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    toolkit.encrypt_home(home)
    assert files_holding_canaries(home) == []
    with Memory.open(home, embedder=mem.embedder) as enc:
        assert enc.counts() == before
        assert any("Zorbulax" in m.text for m in enc.search("Zorbulax harbour").evidence())
    with pytest.raises(UserError, match="encrypted already"):
        toolkit.encrypt_home(home)
    toolkit.decrypt_home(home)
    assert (home / "rawrag.db").read_bytes()[:16] == encryption.PLAIN_HEADER
    assert not (home / "rawrag.db.encrypted").exists()
    monkeypatch.delenv("RAWRAG_PASSPHRASE")
    keys.forget(home / "rawrag.db")
    with Memory.open(home, embedder=mem.embedder) as plain:
        assert plain.counts() == before
    with pytest.raises(UserError, match="not encrypted"):
        toolkit.decrypt_home(home)


def test_refusals_are_one_line(tmp_path, home, open_memory, monkeypatch):
    open_memory().close()
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    with pytest.raises(UserError, match="rawrag encrypt"):
        toolkit.init_home(home, encrypt=True)  # a store is there: encrypting it is another command
    assert toolkit.init_home(home)["created"] is False
    with pytest.raises(UserError, match="no store here yet"):
        toolkit.encrypt_home(tmp_path / "empty")
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "rawrag.db").write_bytes(b"this is no database at all" * 200)
    with pytest.raises(UserError, match="wrong passphrase or not a rawrag store"):
        Memory.open(junk)
    monkeypatch.delenv("RAWRAG_PASSPHRASE")
    code, _, err = run_cli("init", "--encrypt", home=tmp_path / "new", stdin="")
    one_line_error(code, err, "a passphrase is needed: set RAWRAG_PASSPHRASE")


def test_a_rewrite_in_progress_keeps_other_openers_out(home, open_memory, monkeypatch):
    open_memory().close()
    db = home / "rawrag.db"
    with encryption.alone(db), pytest.raises(UserError, match="another rawrag is encrypting"):
        Memory.open(home)


def test_the_apps_passphrase_screen(tmp_path, home, monkeypatch):
    from rawrag_tui.tui.unlock import PassphraseScreen, UnlockApp
    from tests.tui_fixtures import run_async

    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    toolkit.init_home(home, encrypt=True)
    monkeypatch.delenv("RAWRAG_PASSPHRASE")
    keys.forget(home / "rawrag.db")
    assert toolkit.needs_passphrase(home)

    @run_async
    async def drive():
        app = UnlockApp(home)
        async with app.run_test() as pilot:
            await pilot.pause()
            assert isinstance(app.screen, PassphraseScreen)
            await pilot.press(*"guess", "enter")
            await pilot.pause()
            assert "Wrong passphrase" in str(app.screen.query_one("#unlock-error").render())
            await pilot.press(*PASSPHRASE, "enter")
            await pilot.pause()
        return app.return_value

    assert drive() is True
    assert not toolkit.needs_passphrase(home)  # kept for this process: the app opens the store now
    with Memory.open(home) as mem:
        assert mem.counts()["messages"] == 0

    @run_async
    async def status_rows():
        from tests.tui_fixtures import app_for, until

        with Memory.open(home) as mem:
            app = app_for(mem)
            async with app.run_test() as pilot:
                await pilot.press("s")
                await until(pilot, lambda: "Encrypted" in getattr(app.screen, "rows", {}))
                return app.screen.rows

    assert status_rows()["Encrypted"] == "yes, chacha20; the passphrase is asked at start (or RAWRAG_PASSPHRASE)"


def test_the_cli_prints_where_it_is(home, monkeypatch):
    """`rawrag init` with no --encrypt: a plain home, as before."""
    code, out, err = run_cli("init", home=home)
    assert code == 0 and f"made {home}" in out, err
    assert (home / "rawrag.db").read_bytes()[:16] == encryption.PLAIN_HEADER
    assert REPO.is_dir()
