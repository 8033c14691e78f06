"""Where an encrypted store's passphrase comes from, in this order.

1. This process, once it has been given (the app's prompt, an earlier open).
2. The OS keyring (the ``keyring`` package: Secret Service, macOS Keychain,
   Windows Credential Locker), one entry per home, written by ``rawrag init
   --encrypt`` / ``rawrag encrypt`` where a keyring is there to take it.
3. ``RAWRAG_PASSPHRASE``, for scripts and tests. Any process of the same
   user can read another's environment (``/proc/PID/environ``), so using it
   prints a warning, once per process.
4. A prompt on the terminal (getpass), once per process. An MCP server on
   stdio has no terminal to ask on: it needs 2 or 3.

The passphrase is never written anywhere by rawrag except into the keyring.
``keyring`` is imported only for an encrypted store, so a plain one never
touches the keyring (nor waits on a D-Bus that is not there).
"""

from __future__ import annotations

import getpass
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from ..errors import UserError

SERVICE = "rawrag"
ENV = "RAWRAG_PASSPHRASE"
#: The new passphrase of ``rawrag rekey`` where there is no terminal to ask on.
NEW_ENV = "RAWRAG_NEW_PASSPHRASE"
ENV_WARNING = (f"rawrag: note: the passphrase comes from {ENV}; other processes of this user can read "
               "environment variables: prefer the keyring or the prompt outside scripts")

_given: dict[str, str] = {}
_warned: list[bool] = []


def account(db_path: Path) -> str:
    """The keyring entry's name: the home's absolute path (one entry per home)."""
    return str(Path(db_path).expanduser().resolve().parent)


def remember(db_path: Path, passphrase: str) -> None:
    """Keep a passphrase that opened the store, for this process's later opens."""
    _given[account(db_path)] = passphrase


def forget(db_path: Path) -> None:
    _given.pop(account(db_path), None)


def _keyring():
    """The keyring module, or None where none can be used (not installed)."""
    try:
        import keyring
    except ImportError:
        return None
    return keyring


def from_keyring(db_path: Path) -> str | None:
    keyring = _keyring()
    if keyring is None:
        return None
    try:
        return keyring.get_password(SERVICE, account(db_path))
    except Exception:  # noqa: BLE001  (no usable keyring: a locked or absent one is simply not a source)
        return None


def keyring_name() -> str | None:
    """The keyring this process would write to, or None where there is none that keeps secrets."""
    keyring = _keyring()
    if keyring is None:
        return None
    backend = keyring.get_keyring()
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    if name.startswith(("keyring.backends.fail.", "keyring.backends.null.")):
        return None
    return getattr(backend, "name", None) or name


def save_to_keyring(db_path: Path, passphrase: str) -> str | None:
    """Keep the passphrase in the keyring; the keyring's name, or None where it could not be kept.

    Read back before it counts: a backend that accepts and forgets (the null
    one) must not leave a store that nobody will ask the passphrase of."""
    name = keyring_name()
    keyring = _keyring()
    if name is None or keyring is None:
        return None
    try:
        keyring.set_password(SERVICE, account(db_path), passphrase)
        if keyring.get_password(SERVICE, account(db_path)) != passphrase:
            return None
    except Exception:  # noqa: BLE001  (a keyring that refuses: the passphrase is asked instead)
        return None
    return name


def drop_from_keyring(db_path: Path) -> None:
    keyring = _keyring()
    if keyring is None:
        return
    try:
        keyring.delete_password(SERVICE, account(db_path))
    except Exception:  # noqa: BLE001  (nothing there, or no keyring: nothing to drop)
        return


def from_environment(name: str = ENV) -> str | None:
    value = os.environ.get(name)
    if not value:
        return None
    if not _warned:
        _warned.append(True)
        print(ENV_WARNING, file=sys.stderr, flush=True)
    return value


def can_ask() -> bool:
    """A person at a terminal to ask (getpass reads the terminal, not a pipe)."""
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def known(db_path: Path) -> Iterator[str]:
    """The passphrases to hand without asking anyone: this process's, the keyring's, the environment's
    (each looked up only when the one before is missing or wrong)."""
    seen: set[str] = set()
    for source in (lambda: _given.get(account(db_path)), lambda: from_keyring(db_path), from_environment):
        value = source()
        if value and value not in seen:
            seen.add(value)
            yield value


def candidates(db_path: Path) -> Iterator[str]:
    """Passphrases to try on ``db_path`` (module doc): the known ones, then one typed on the
    terminal; a stale keyring entry does not lock the store while another source has the right one."""
    tried: set[str] = set()
    for value in known(db_path):
        tried.add(value)
        yield value
    if can_ask():
        entered = getpass.getpass(f"passphrase for {account(db_path)}: ")
        if entered and entered not in tried:
            tried.add(entered)
            yield entered
    if not tried:
        raise UserError(f"{db_path}: the store is encrypted (or is no rawrag store) and no passphrase was given: "
                        f"none in the keyring, {ENV} is not set and there is no terminal to ask on")


def new_passphrase(what: str, env: str = ENV) -> str:
    """A passphrase to encrypt with: ``env``, or typed twice on the terminal."""
    value = from_environment(env)
    if value:
        return value
    if not can_ask():
        raise UserError(f"{what}: a passphrase is needed: set {env} or run this on a terminal")
    first = getpass.getpass(f"new passphrase for {what}: ")
    if not first:
        raise UserError(f"{what}: an empty passphrase encrypts nothing")
    if getpass.getpass("the same passphrase again: ") != first:
        raise UserError(f"{what}: the two passphrases differ; nothing was changed")
    return first
