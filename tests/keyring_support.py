"""Test keyrings: real ``keyring`` backends that keep secrets where a test can look.

``MemoryKeyring`` is set in-process with ``keyring.set_keyring``; ``FileKeyring``
is named to a `rawrag` subprocess by ``PYTHON_KEYRING_BACKEND=tests.keyring_support.FileKeyring``
(keyring's own switch) and keeps its entries in the JSON file ``RAWRAG_TEST_KEYRING`` names.
Neither ever touches the machine's own keyring.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.errors import PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self):
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.entries.get((service, username))

    def set_password(self, service, username, password):
        self.entries[(service, username)] = password

    def delete_password(self, service, username):
        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError("no such entry")


class FileKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    @property
    def path(self) -> Path:
        return Path(os.environ["RAWRAG_TEST_KEYRING"])

    def _load(self) -> dict:
        return json.loads(self.path.read_text()) if self.path.exists() else {}

    def get_password(self, service, username):
        return self._load().get(f"{service}\0{username}")

    def set_password(self, service, username, password):
        entries = self._load()
        entries[f"{service}\0{username}"] = password
        self.path.write_text(json.dumps(entries))

    def delete_password(self, service, username):
        entries = self._load()
        if entries.pop(f"{service}\0{username}", None) is None:
            raise PasswordDeleteError("no such entry")
        self.path.write_text(json.dumps(entries))
