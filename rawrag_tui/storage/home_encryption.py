"""What ``rawrag init --encrypt``, ``encrypt``, ``decrypt`` and ``rekey`` do to a home's store,
and what a face asks before opening one (is a passphrase still needed; does this one open it).

The cipher work is :mod:`.encryption`'s, the passphrase's sources :mod:`.keys`'. Here: which
passphrase goes where, in what order (the old one is proven before a new one is asked for), and
the keyring entry kept in step with the store (written only once the store is under that key).
"""

from __future__ import annotations

from pathlib import Path

import apsw

from ..errors import UserError
from ..progress import Progress
from . import encryption, keys
from .db import ensure_private_dir


def state(db_path: Path) -> dict:
    """``encrypted``, and for an encrypted store its ``cipher`` and the ``keyring`` keeping its passphrase."""
    if not encryption.is_encrypted(db_path):
        return {"encrypted": False}
    marker = encryption.read_marker(db_path) or {}
    return {"encrypted": True, "cipher": marker.get("cipher") or encryption.CIPHER, "keyring": marker.get("keyring")}


def needs_passphrase(db_path: Path) -> bool:
    """True when the store is encrypted and none of the passphrases known without asking opens it."""
    if not encryption.is_encrypted(db_path):
        return False
    if not db_path.exists() or not db_path.stat().st_size:  # made encrypted, not one page written yet
        return not any(True for _ in keys.known(db_path))
    for passphrase in keys.known(db_path):
        if encryption.opens(db_path, passphrase):
            keys.remember(db_path, passphrase)
            return False
    return True


def unlock(db_path: Path, passphrase: str) -> None:
    """Prove ``passphrase`` on the store and keep it for this process (the app's prompt)."""
    if not encryption.opens(db_path, passphrase):
        raise UserError(f"{db_path}: wrong passphrase or not a rawrag store")
    keys.remember(db_path, passphrase)


def _keep(db_path: Path, passphrase: str, use_keyring: bool) -> str | None:
    """The store is under ``passphrase`` now: remember it, put it in the keyring (where asked
    and there is one), and write the marker that names the keyring."""
    keys.remember(db_path, passphrase)
    keyring = keys.save_to_keyring(db_path, passphrase) if use_keyring else None
    if not keyring:
        keys.drop_from_keyring(db_path)  # an older entry would be tried first, in vain
    encryption.write_marker(db_path, keyring)
    return keyring


def init(db_path: Path, encrypt: bool, use_keyring: bool = True) -> dict:
    """A new, empty store (encrypted from its first page with ``encrypt``); an existing one is left as it is."""
    from .store import Store

    if db_path.exists() and db_path.stat().st_size:
        if encrypt and not encryption.is_encrypted(db_path):
            raise UserError(f"{db_path.parent}: there is a store here already: `rawrag encrypt` encrypts it in place")
        return {"home": str(db_path.parent), "created": False, **state(db_path)}
    if not encrypt:
        Store.open(db_path).close()
        return {"home": str(db_path.parent), "created": True, "encrypted": False}
    passphrase = keys.new_passphrase(str(db_path.parent))
    ensure_private_dir(db_path.parent)
    encryption.write_marker(db_path, None)  # before the first page: the new store is keyed
    keys.remember(db_path, passphrase)
    Store.open(db_path).close()
    keyring = _keep(db_path, passphrase, use_keyring)
    return {"home": str(db_path.parent), "created": True, "encrypted": True, "cipher": encryption.CIPHER,
            "keyring": keyring}


def encrypt(db_path: Path, progress: Progress | None = None, use_keyring: bool = True) -> dict:
    if encryption.is_encrypted(db_path):
        raise UserError(f"{db_path}: the store is encrypted already (`rawrag rekey` changes its passphrase)")
    _check_alone(db_path)
    passphrase = keys.new_passphrase(str(db_path.parent))
    encryption.rewrite(db_path, passphrase, "encrypt", progress)
    keyring = _keep(db_path, passphrase, use_keyring)
    return {"home": str(db_path.parent), "encrypted": True, "cipher": encryption.CIPHER, "keyring": keyring}


def _check_alone(db_path: Path) -> None:
    """Refuse before anything is asked where another rawrag has the store open (the rewrite checks again)."""
    if db_path.exists() and db_path.stat().st_size:
        with encryption.alone(db_path):
            pass


def _prove_old(db_path: Path, verb: str) -> None:
    """The store's passphrase, asked and checked before anything else is."""
    if not encryption.is_encrypted(db_path):
        raise UserError(f"{db_path}: the store is not encrypted: nothing to {verb}")
    _check_alone(db_path)
    encryption.open_connection(db_path, apsw.SQLITE_OPEN_READWRITE).close()  # remembers the one that opens


def decrypt(db_path: Path, progress: Progress | None = None) -> dict:
    _prove_old(db_path, "decrypt")
    encryption.rewrite(db_path, None, "decrypt", progress)
    keys.drop_from_keyring(db_path)
    keys.forget(db_path)
    encryption.marker_path(db_path).unlink(missing_ok=True)
    return {"home": str(db_path.parent), "encrypted": False}


def rekey(db_path: Path, progress: Progress | None = None, use_keyring: bool = True) -> dict:
    """The whole store under a new passphrase (a new salt and key); the old one opens nothing after."""
    _prove_old(db_path, "rekey")
    passphrase = keys.new_passphrase(str(db_path.parent), env=keys.NEW_ENV)
    encryption.rewrite(db_path, passphrase, "rekey", progress)
    keyring = _keep(db_path, passphrase, use_keyring)
    return {"home": str(db_path.parent), "encrypted": True, "cipher": encryption.CIPHER, "keyring": keyring}
