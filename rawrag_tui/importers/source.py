"""One view over an export given as a single file, an unpacked folder or a zip.

Importers read members by relative name and never see the filesystem layout,
so one parser serves all three shapes. Zip members are read in memory through
the zip file, never extracted, and unsafe members (absolute paths, ``..``,
symlinks) or a zip bomb are refused before anything is parsed.
"""

from __future__ import annotations

import io
import os
import stat
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import IO, Any, TypeVar, cast

from ..errors import ImportFormatError

#: A zip whose members declare more than this in total is refused unread.
MAX_UNCOMPRESSED_BYTES = 20 * 1024**3
#: ...and so is one whose declared size is this many times its compressed size
#: (a member, or all members together once they declare over RATIO_FLOOR_BYTES:
#: many members just under the one-member floor add up to the same bomb).
MAX_COMPRESSION_RATIO = 200
RATIO_FLOOR_BYTES = 10 * 1024**2


#: What zipfile raises for a damaged archive or member: a bad CRC, a zlib
#: stream that does not decode, a lying size, an unknown compression method.
ZIP_DAMAGE = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, struct.error)

_T = TypeVar("_T")


class DamagedMember(ImportFormatError):
    """A zip member that cannot be read back: the export was damaged on its way (download it again)."""

    def __init__(self, zip_path: Path, member: str, exc: BaseException):
        reason = " ".join(str(exc).split()) or type(exc).__name__
        super().__init__(zip_path, "zip", f"member {member!r} is damaged ({reason}); download the export again")


class _GuardedMember(io.BufferedIOBase):
    """A zip member whose every read turns zipfile's damage errors into one
    :class:`DamagedMember` line naming the member (reads fail lazily, deep in
    a parser, where a bare ``zlib.error`` would be a traceback)."""

    def __init__(self, inner: IO[bytes], zip_path: Path, member: str):
        super().__init__()
        self._inner = inner
        self._zip_path = zip_path
        self._member = member

    def _guard(self, read: Callable[..., _T], *args: Any) -> _T:
        try:
            return read(*args)
        except ZIP_DAMAGE as exc:
            raise DamagedMember(self._zip_path, self._member, exc) from None

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        return self._guard(self._inner.read, -1 if size is None else size)

    def read1(self, size: int = -1) -> bytes:
        return self._guard(getattr(self._inner, "read1", self._inner.read), size)

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readline(self, size: int | None = -1) -> bytes:
        return self._guard(self._inner.readline, -1 if size is None else size)

    def peek(self, size: int = 0) -> bytes:
        return self._guard(getattr(self._inner, "peek", self._inner.read), size)

    def seekable(self) -> bool:
        return self._inner.seekable()

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._guard(self._inner.seek, offset, whence)

    def tell(self) -> int:
        return self._inner.tell()

    def close(self) -> None:
        self._inner.close()
        super().close()


def _looks_like_zip(path: Path) -> bool:
    """A file that starts like a zip (local file header) but that zipfile cannot open."""
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"PK\x03\x04"
    except OSError:
        return False


class ExportSource:
    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        if not self.path.exists():
            raise ImportFormatError(self.path, "any", "no such file or folder")
        mode = self.path.stat().st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            # A FIFO blocks the first read forever and /dev/zero never ends: refuse by kind, unread.
            raise ImportFormatError(self.path, "any", "not a regular file or folder (a pipe, device or socket)")
        self._zip: zipfile.ZipFile | None = None
        #: Normalised member name -> the name stored in the zip (Windows
        #: zippers may store "a\\b.json"; importers always see "a/b.json").
        self._zip_names: dict[str, str] = {}
        self._names: list[str]
        #: Sniff results per member, shared by every detector (see _sniff).
        self.cache: dict = {}
        if self.path.is_dir():
            self.kind = "folder"
            self._names = sorted(
                p.relative_to(self.path).as_posix()
                for p in self.path.rglob("*")
                if p.is_file() and not p.is_symlink()
            )
        elif zipfile.is_zipfile(self.path):
            self.kind = "zip"
            try:
                self._zip = zipfile.ZipFile(self.path)
            except (*ZIP_DAMAGE, OSError) as exc:
                raise ImportFormatError(self.path, "zip", f"the zip is damaged ({exc}); download it again") from None
            self._names = self._check_zip(self._zip)
        else:
            if _looks_like_zip(self.path):
                # A zip's directory is at its end: without it the download stopped early.
                raise ImportFormatError(
                    self.path, "zip", "the zip is truncated or damaged (a partial download?); download it again"
                )
            self.kind = "file"
            self._names = [self.path.name]

    def _check_zip(self, zf: zipfile.ZipFile) -> list[str]:
        names: list[str] = []
        total = compressed = 0
        for info in zf.infolist():
            name = info.filename
            posix = name.replace("\\", "/")
            if "//" in posix or posix.startswith("./") or "/./" in posix or posix.endswith("/."):
                posix = PurePosixPath(posix).as_posix()  # rare: let pathlib normalise it
            if posix.startswith("/") or ".." in posix.split("/") or (len(name) > 1 and name[1] == ":"):
                raise ImportFormatError(self.path, "zip", f"unsafe member path {name!r} refused")
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise ImportFormatError(self.path, "zip", f"member {name!r} is a link; refused")
            if info.is_dir():
                continue
            total += info.file_size
            compressed += info.compress_size
            if total > MAX_UNCOMPRESSED_BYTES or (
                info.file_size > RATIO_FLOOR_BYTES
                and info.file_size > MAX_COMPRESSION_RATIO * max(info.compress_size, 1)
            ):
                raise ImportFormatError(
                    self.path, "zip", f"member {name!r} declares {info.file_size} bytes: refused as a zip bomb"
                )
            names.append(posix)
            self._zip_names[posix] = name
        if total > RATIO_FLOOR_BYTES and total > MAX_COMPRESSION_RATIO * max(compressed, 1):
            raise ImportFormatError(
                self.path, "zip", f"its {len(names)} members declare {total:,} bytes from {compressed:,} compressed "
                f"(over {MAX_COMPRESSION_RATIO}x): refused as a zip bomb")
        return sorted(names)

    def names(self) -> list[str]:
        """Relative member names (posix), files only."""
        return list(self._names)

    def open(self, name: str) -> IO[bytes]:
        if self._zip is not None:
            try:
                member = self._zip.open(self._zip_names.get(name, name))
            except ZIP_DAMAGE as exc:
                raise DamagedMember(self.path, name, exc) from None
            # a binary file object in every way the importers use (read, readline, iteration, wrappers)
            return cast(IO[bytes], _GuardedMember(member, self.path, name))
        if self.kind == "file":
            return open(self.path, "rb")
        target = (self.path / name).resolve()
        if self.path.resolve() not in target.parents:
            raise ImportFormatError(self.path, "folder", f"member {name!r} lies outside the export")
        return open(target, "rb")

    def read_bytes(self, name: str) -> bytes:
        with self.open(name) as fh:
            return fh.read()

    def display(self, name: str) -> str:
        """How to name a member in an error message."""
        if self.kind == "file":
            return str(self.path)
        return f"{self.path}!{name}" if self.kind == "zip" else str(self.path / name)

    def iter_lines(self, name: str) -> Iterator[bytes]:
        with self.open(name) as fh:
            yield from fh

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()

    def __enter__(self) -> ExportSource:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
