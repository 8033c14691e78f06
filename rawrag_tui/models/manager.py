"""The model manager: pull from the hub, list, export, choose a profile, open.

Pulling uses huggingface_hub (its resumable download, its endpoint handling),
and adds what rawrag needs on top:

- every file is checked against a SHA-256 before it is kept: the registry's
  pinned hash, else the hub's LFS object id (which is the file's SHA-256);
  small non-LFS files have no published hash, so theirs is recorded at pull
  and verified on every later load;
- bytes land in ``models/.downloads/`` and only a verified file is renamed into
  ``models/hub/owner--name/``: a model directory never holds a partial or
  corrupted file; an interrupted pull resumes (HTTP Range) on the next try;
- no network, or a hub that says no, is one clear line (ModelError).

``models/pulled.json`` is the local manifest of what was pulled.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ModelError
from .exporter import export, quantize_dir  # noqa: F401  (the manager's API)
from .registry import PROFILES, ModelFile, RoleSpec, describe_profiles, get_profile, hub_dir
from .runtime import sha256_file, verify

if TYPE_CHECKING:  # pragma: no cover
    from ..settings import ModelSettings, Settings

PULLED = "pulled.json"
DEFAULT_ENDPOINT = "https://huggingface.co"
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
Progress = Callable[[str], None]


def endpoint(settings: Settings | None = None) -> str:
    """Settings first (models.hub_endpoint), then HF_ENDPOINT, then the hub."""
    configured = settings.models.hub_endpoint if settings else ""
    return (configured or os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT).rstrip("/")


def _private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def _write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, sort_keys=True)
        handle.write("\n")
    os.replace(tmp, path)


def read_pulled(models_dir: Path) -> dict[str, Any]:
    path = models_dir / PULLED
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ModelError(f"{path}: not valid JSON ({exc}); delete it and pull again") from None


def _one_line(exc: BaseException | None) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _hub_error(exc: BaseException, what: str, url: str) -> ModelError:
    """One line for whatever the hub client raised."""
    import requests
    from huggingface_hub import errors as hf_errors

    if isinstance(exc, (requests.ConnectionError, requests.Timeout)) or isinstance(
        exc.__cause__ or exc.__context__, (requests.ConnectionError, requests.Timeout)
    ):
        return ModelError(
            f"cannot reach the model hub at {url} to fetch {what}: no network? "
            "(set HF_ENDPOINT or models.hub_endpoint for a mirror)"
        )
    if isinstance(exc, hf_errors.RepositoryNotFoundError):
        return ModelError(f"{what}: repository not found on {url} (or it needs a login)")
    if isinstance(exc, hf_errors.EntryNotFoundError):
        return ModelError(f"{what}: no such file on {url}")
    if isinstance(exc, hf_errors.GatedRepoError):
        return ModelError(f"{what}: gated repository: accept its licence on the hub and log in (hf auth login)")
    return ModelError(f"{what}: download from {url} failed: {_one_line(exc)}")


def check_reachable(url: str, timeout: float = 5.0) -> None:
    """Fail in one line, at once, when the hub's host cannot be reached.

    Without this the hub client retries a refused connection with back-off
    for ~23 s and prints a warning per try. Skipped behind a proxy (the
    proxy, not the host, is what we would reach).
    """
    import socket
    from urllib.parse import urlsplit

    if any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY")):
        return
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((parts.hostname or "", port), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ModelError(
            f"cannot reach the model hub at {url} ({reason}): no network? "
            "(set HF_ENDPOINT or models.hub_endpoint for a mirror)"
        ) from None


@contextlib.contextmanager
def _quiet_hub_client():
    """The hub client logs a warning per retry; our errors say it in one line."""
    import logging

    hub_logger = logging.getLogger("huggingface_hub")
    level = hub_logger.level
    hub_logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        hub_logger.setLevel(level)


def _remove_partials(staging: Path, path_in_repo: str) -> None:
    """Drop a rejected file and huggingface_hub's partial/metadata for it."""
    (staging / path_in_repo).unlink(missing_ok=True)
    cache = staging / ".cache" / "huggingface" / "download"
    for leftover in cache.glob(path_in_repo + ".*"):
        leftover.unlink(missing_ok=True)


def _tidy_staging(staging: Path, models_dir: Path) -> None:
    """Remove the download area's leftovers once no partial file needs them."""
    download = staging / ".cache" / "huggingface" / "download"
    if not any(p.name.endswith(".incomplete") for p in download.rglob("*")) if download.exists() else True:
        shutil.rmtree(staging / ".cache", ignore_errors=True)
    for folder in sorted((p for p in staging.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts)):
        if not any(folder.iterdir()):
            folder.rmdir()
    path = staging
    while path != models_dir and path.is_dir() and not any(path.iterdir()):
        path.rmdir()
        path = path.parent


def pull_file(
    repo: str,
    file: ModelFile,
    settings: Settings,
    *,
    revision: str = "main",
    attempts: int = 3,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Fetch one file, verify it, move it into place; returns its pulled.json record."""
    import requests
    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url
    from huggingface_hub.errors import HfHubHTTPError

    models_dir = _private_dir(settings.models_dir)
    url = endpoint(settings)
    key = f"{repo}/{file.path}"
    final = hub_dir(models_dir, repo) / file.path
    pulled = read_pulled(models_dir)
    record = pulled.get(key)
    if record and final.is_file() and final.stat().st_size == record["size"]:
        if progress:
            progress(f"{key}: already pulled")
        return record

    try:
        meta = get_hf_file_metadata(hf_hub_url(repo, file.path, revision=revision, endpoint=url))
    except (requests.RequestException, HfHubHTTPError, OSError) as exc:
        raise _hub_error(exc, key, url) from None
    lfs_sha = meta.etag if meta.etag and SHA256_RE.match(meta.etag) else None
    if file.sha256 and lfs_sha and file.sha256 != lfs_sha:
        raise ModelError(f"{key}: the hub now serves a different file (sha256 {lfs_sha}, pinned {file.sha256})")
    expected_sha = file.sha256 or lfs_sha
    expected_size = file.size or meta.size
    how = "pinned" if file.sha256 else ("hub LFS sha256" if lfs_sha else "recorded at pull (not an LFS file)")

    staging = _private_dir(models_dir / ".downloads" / repo.replace("/", "--"))
    last: BaseException | None = None
    for attempt in range(1, attempts + 1):
        try:
            local = Path(
                hf_hub_download(repo, file.path, revision=revision, local_dir=staging, endpoint=url, etag_timeout=30)
            )
            break
        except (requests.RequestException, HfHubHTTPError, OSError) as exc:
            # The partial stays in .downloads: the next try asks for the rest.
            last = exc
            if progress:
                progress(f"{key}: attempt {attempt} failed ({_one_line(exc)}); resuming")
    else:
        raise ModelError(
            f"{key}: download interrupted {attempts} times ({_one_line(last)}); "
            "run the pull again to resume"
        ) from None

    try:
        got_size = local.stat().st_size
        if expected_size is not None and got_size != expected_size:
            raise ModelError(f"{key}: wrong size: expected {expected_size:,} bytes, got {got_size:,}; file discarded")
        got_sha = sha256_file(local)
        if expected_sha and got_sha != expected_sha:
            raise ModelError(f"{key}: checksum mismatch: expected sha256 {expected_sha}, got {got_sha}; file discarded")
    except ModelError:
        _remove_partials(staging, file.path)
        _tidy_staging(staging, models_dir)
        raise

    _private_dir(final.parent)
    os.chmod(local, 0o600)
    os.replace(local, final)  # same filesystem: atomic
    _remove_partials(staging, file.path)
    _tidy_staging(staging, models_dir)
    record = {
        "repo": repo,
        "path": file.path,
        "revision": revision,
        "commit": meta.commit_hash,
        "size": got_size,
        "sha256": got_sha,
        "verified": how,
        "pulled_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    pulled = read_pulled(models_dir)
    pulled[key] = record
    _write_json_atomic(models_dir / PULLED, pulled)
    if progress:
        progress(f"{key}: {got_size:,} bytes, sha256 {got_sha[:16]}… ({how})")
    return record


def repo_files(repo: str, settings: Settings, revision: str = "main") -> list[ModelFile]:
    """Every file of a hub repository, with its size.

    (Its LFS sha256 is read again from the file's own metadata at download.)
    """
    import requests
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError

    url = endpoint(settings)
    try:
        info = HfApi(endpoint=url).model_info(repo, revision=revision, files_metadata=True)
    except (requests.RequestException, HfHubHTTPError, OSError) as exc:
        raise _hub_error(exc, repo, url) from None
    files = []
    for sibling in info.siblings or []:
        lfs = sibling.lfs
        files.append(ModelFile(sibling.rfilename, size=lfs.size if lfs else sibling.size))
    return files


def pull(
    target: str,
    settings: Settings,
    *,
    include: list[str] | None = None,
    revision: str = "main",
    attempts: int = 3,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Pull a profile's hub files, or the files of one hub repo (``owner/name``)."""
    with _quiet_hub_client():
        return _pull(target, settings, include=include, revision=revision, attempts=attempts, progress=progress)


def _pull(target, settings, *, include, revision, attempts, progress) -> list[dict[str, Any]]:
    if target in PROFILES or re.fullmatch(r"[\w.-]+/[\w.-]+", target):
        check_reachable(endpoint(settings))
    if target in PROFILES:
        jobs = [(repo, f, spec.revision) for spec in get_profile(target).hub_roles() for repo, f in spec.all_files()]
        if not jobs:
            raise ModelError(f"profile {target!r} has nothing to pull: it ships inside packages")
    elif re.fullmatch(r"[\w.-]+/[\w.-]+", target):
        files = repo_files(target, settings, revision)
        if include:
            files = [f for f in files if any(fnmatch.fnmatch(f.path, pattern) for pattern in include)]
        if not files:
            raise ModelError(f"{target}: no files match {include or ['*']}")
        jobs = [(target, f, revision) for f in files]
    else:
        raise ModelError(f"{target!r}: not a profile ({', '.join(PROFILES)}) or a hub repo id (owner/name)")
    return [pull_file(repo, f, settings, revision=rev, attempts=attempts, progress=progress) for repo, f, rev in jobs]


def list_models(settings: Settings) -> dict[str, Any]:
    """Profiles with per-role presence, the active profile, and what was pulled."""
    pulled = read_pulled(settings.models_dir)
    return {
        "active": settings.models.profile,
        "models_dir": str(settings.models_dir),
        "profiles": describe_profiles(settings.models_dir, pulled),
        "pulled": sorted(pulled.values(), key=lambda r: (r["repo"], r["path"])),
    }


def missing_roles(profile: str, settings: Settings) -> list[str]:
    described = {p["profile"]: p for p in describe_profiles(settings.models_dir, read_pulled(settings.models_dir))}
    return [
        name
        for name, role in described[profile]["roles"].items()
        if not role["present"] and role["source"] == "hub"
    ]


def use(profile: str, settings: Settings, *, force: bool = False) -> Path:
    """Write ``[models] profile = "..."`` into the home's config.toml.

    Refuses a profile whose hub files are not pulled (unless ``force``): the
    next search would fail. Re-embedding for the new embedder is ``index``'s.
    """
    get_profile(profile)
    missing = missing_roles(profile, settings)
    if missing and not force:
        raise ModelError(
            f"profile {profile!r} is not pulled ({', '.join(missing)} missing): "
            f"run `rawrag models pull {profile}` first"
        )
    return set_config_value(settings.home, "models", "profile", profile)


def set_config_value(home: Path, section: str, key: str, value: str | bool) -> Path:
    """Set one string (or boolean) value in config.toml, keeping every other line as it was."""
    import tomllib

    path = home / "config.toml"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ModelError(f"{path}: not valid TOML ({exc}); fix it before changing settings") from None
    line = f"{key} = {json.dumps(value)}"
    lines = text.splitlines()
    header = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
    start = next((i for i, row in enumerate(lines) if (m := header.match(row)) and m.group(1) == section), None)
    if start is None:
        lines += ([""] if lines and lines[-1].strip() else []) + [f"[{section}]", line]
    else:
        end = next((i for i in range(start + 1, len(lines)) if header.match(lines[i])), len(lines))
        existing = next((i for i in range(start + 1, end) if re.match(rf"^\s*{re.escape(key)}\s*=", lines[i])), None)
        if existing is None:
            lines.insert(start + 1, line)
        else:
            lines[existing] = line
    new_text = "\n".join(lines) + "\n"
    tomllib.loads(new_text)  # never write a file the settings loader cannot read
    _private_dir(home)
    tmp = path.with_name(f".config.toml.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(new_text)
    os.replace(tmp, path)
    return path


def _pulled_path(settings: Settings, repo: str, path: str, pulled: dict[str, Any], profile: str) -> tuple[Path, dict]:
    record = pulled.get(f"{repo}/{path}")
    where = hub_dir(settings.models_dir, repo) / path
    if not record or not where.is_file():
        raise ModelError(f"{repo}/{path} is not pulled: run `rawrag models pull {profile}`")
    return where, record


def role_file(settings: Settings, role: str, profile: str | None = None, *, check: bool = True) -> Path:
    """The pulled main file of a hub profile's role (e.g. the reader's GGUF),
    verified against its pull record unless ``check`` is False."""
    name = profile or settings.models.profile
    spec = get_profile(name).role(role)
    if spec.source != "hub" or spec.main_file is None:
        raise ModelError(f"profile {name!r}: the {role} model is not a hub download")
    path, record = _pulled_path(settings, spec.repo, spec.main_file.path, read_pulled(settings.models_dir), name)
    if check:
        verify(path, record["sha256"], record["size"])
    return path


def open_hub_role(settings: Settings, role: str, profile: str | None = None):
    """The Embedder / Reranker of a hub profile's role, verified; None if the role is empty.

    (The bundled profile's models ship in packages: models/__init__.py opens them.)
    """
    spec: RoleSpec = get_profile(profile or settings.models.profile).role(role)
    name = profile or settings.models.profile
    if spec.source == "none":
        return None
    if spec.source != "hub":
        raise ModelError(f"profile {name!r}: the {role} model is not a hub model")
    pulled = read_pulled(settings.models_dir)
    main = spec.main_file
    if main is None:
        raise ModelError(f"profile {name!r}: the {role} model names no main file")
    onnx_path, record = _pulled_path(settings, spec.repo, main.path, pulled, name)
    tok_repo = spec.tokenizer_repo or spec.repo
    tokenizer_path, tok_record = _pulled_path(settings, tok_repo, spec.tokenizer_file, pulled, name)
    verify(tokenizer_path, tok_record["sha256"], tok_record["size"])
    common = dict(model_id=spec.repo, settings=settings, sha256=record["sha256"], size=record["size"])
    if spec.kind == "qwen3-embed":
        from .qwen3_embedder import Qwen3Embedder

        return Qwen3Embedder(onnx_path, tokenizer_path, **common)
    if spec.kind == "qwen3-rerank":
        from .qwen3_reranker import Qwen3Reranker

        return Qwen3Reranker(onnx_path, tokenizer_path, padded_batches=spec.padded_batches, **common)
    raise ModelError(f"profile {name!r}: {role} kind {spec.kind!r} is opened elsewhere")


def configured_model(models: ModelSettings, role: str) -> str:
    """The model a setting names for a role (models.<role>_model); "" = the profile's."""
    by_role = {"embed": models.embed_model, "rerank": models.rerank_model, "reader": models.reader_model}
    return by_role.get(role, "")


def open_configured(settings: Settings, role: str):
    """An exported model directory named in settings (models.embed_model /
    models.rerank_model), else None: lets any local export replace a role."""
    from .local_models import open_model_dir

    configured = configured_model(settings.models, role)
    return open_model_dir(configured, settings) if configured else None
