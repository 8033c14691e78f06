"""The product, as a user gets it: the wheel, the standalone build, install.sh.

Nothing here runs from the source tree. The wheel is built with ``python -m
build`` (sdist, then the wheel from the sdist, so the sdist is checked too),
installed into a fresh venv, and run from an empty folder with HOME pointed
at an empty directory and only /usr/bin:/bin on PATH. The standalone
PyInstaller folder is built from that venv and run the same way.
``packaging/install.sh`` installs into a temporary HOME with ``uv tool
install``, passes ``rawrag doctor``, and a second run upgrades rawrag alone.

The reader's llama-cpp-python comes from the portable wheel that ``make``
already built (rawrag_tui/models/reader_build.py), never compiled here; the
other packages come from the package registry through pip's and uv's caches.
Each step's wall time is printed (``pytest -s``) for packaging/README.md.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rawrag_tui.models import reader_build

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
#: The interpreter the .venv was made from: a real Python, no venv around it.
BASE_PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
#: Variables a package download needs (certificates, proxies, pip's own settings).
PASS_THROUGH = re.compile(r"(?i)^(.*_proxy|ssl_cert_.*|requests_ca_bundle|pip_.*|lang|lc_all|tmpdir)$")
TIMES: dict[str, float] = {}


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """What a user's shell would have: HOME, a system PATH, no venv, no PYTHONPATH, no RAWRAG_*."""
    env = {k: v for k, v in os.environ.items() if PASS_THROUGH.match(k)}
    env.update({"HOME": str(home), "PATH": "/usr/bin:/bin", **extra})
    return env


def run(cmd: list[str], env: dict[str, str], cwd: Path, label: str, timeout: float = 900,
        check: bool = True) -> subprocess.CompletedProcess:
    started = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    TIMES[label] = time.perf_counter() - started
    print(f"[packaging] {label}: {TIMES[label]:.1f} s")
    if check:
        assert proc.returncode == 0, f"{label} exited {proc.returncode}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def reader_wheels() -> Path:
    folder = reader_build.wheel_dir()
    if reader_build.find_wheel(folder) is None:
        pytest.skip(f"the portable reader wheel is not built yet ({folder}): `make test` builds it first")
    return folder


#: Disk the module needs: the builds (sdist, wheel, two installs, the standalone
#: folder, ~3.3 GiB measured) and uv's cache if it starts empty (~1 GiB).
DISK_NEEDED = 6 * 2**30


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Iterator[Path]:
    """The module's folder, removed at its end: the GiBs it holds would crowd every later test's tmp_path."""
    path = tmp_path_factory.mktemp("packaging")
    free = shutil.disk_usage(path).free
    if free < DISK_NEEDED:
        pytest.skip(f"packaging needs {DISK_NEEDED / 2**30:.0f} GiB free on {path}'s disk; {free / 2**30:.1f} GiB is")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def dist(work) -> dict[str, Path]:
    out = work / "dist"
    run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)], dict(os.environ), work, "python -m build")
    wheels, sdists = list(out.glob("rawrag_tui-*.whl")), list(out.glob("rawrag_tui-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    return {"wheel": wheels[0], "sdist": sdists[0]}


@pytest.fixture(scope="module")
def venv(work, dist, reader_wheels) -> Path:
    """A fresh venv holding the wheel with its reader (and PyInstaller, for the standalone build)."""
    path = work / "venv"
    run([BASE_PYTHON, "-m", "venv", str(path)], dict(os.environ), work, "venv")
    # uv, not pip: the same clean install, from uv's cache in seconds where
    # pip unpacks ~900 MB again (95 s against 2.5 s, measured here).
    env = dict(os.environ, UV_CACHE_DIR=uv_cache())
    run([str(Path(sys.executable).with_name("uv")), "pip", "install", "--quiet", "--python",
         str(path / "bin" / "python"), "--find-links", str(reader_wheels), "--only-binary", "llama-cpp-python",
         f"{dist['wheel']}[reader,package]"], env, work, "uv pip install wheel[reader]")
    return path


def uv_cache() -> str:
    """uv's cache of the real user: the packages are downloaded once, not per test run."""
    return os.environ.get("UV_CACHE_DIR") or str(Path.home() / ".cache" / "uv")


def test_the_wheel_holds_what_runs_and_nothing_else(dist):
    import zipfile

    names = zipfile.ZipFile(dist["wheel"]).namelist()
    assert "rawrag_tui/data/demo.jsonl" in names and "rawrag_tui/tui/app.tcss" in names
    assert "rawrag_tui/models/reader_build.py" in names
    assert not [n for n in names if not n.startswith(("rawrag_tui/", "rawrag_tui-"))]
    # No string in the package's code (docstrings aside) names a file outside
    # it: ../shared, the repository's data. The runs below check it for real.
    for name in names:
        if name.endswith(".py"):
            tree = ast.parse(zipfile.ZipFile(dist["wheel"]).read(name))
            docs = {id(n.body[0].value) for n in ast.walk(tree)
                    if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                    and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
            strings = [n.value for n in ast.walk(tree)
                       if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]
            assert not [t for t in strings if "../" in t or "shared/" in t or "locomo-conv" in t], name


def test_the_installed_wheel_runs_the_demo_and_search_outside_the_source_tree(venv, work):
    home, cwd = work / "venv-home", work / "elsewhere"
    home.mkdir()
    cwd.mkdir(exist_ok=True)
    env = clean_env(home)
    rawrag = str(venv / "bin" / "rawrag")
    where = run([str(venv / "bin" / "python"), "-c", "import rawrag_tui; print(rawrag_tui.__file__)"], env, cwd,
                "import")
    assert where.stdout.strip().startswith(str(venv)), where.stdout

    empty = run([rawrag, "search", "Jordan"], env, cwd, "search (empty home)", check=False)
    assert empty.returncode == 1 and "is empty" in empty.stderr and "rawrag demo" in empty.stderr

    demo = run([rawrag, "demo", "--no-ask"], env, cwd, "venv: rawrag demo --no-ask")
    demo_home = home / ".local" / "share" / "rawrag" / "demo"
    assert f"demo data in {demo_home}" in demo.stdout and "imported 4 conversations" in demo.stdout
    found = run([rawrag, "--home", str(demo_home), "search", "--json", "--limit", "3", "Jordan's dog"], env, cwd,
                "venv: rawrag search --json")
    hits = json.loads(found.stdout)["hits"]
    assert any("Biscuit" in m["text"] for h in hits for m in h["messages"])


def test_the_standalone_build_runs_without_python(venv, dist, work, reader_wheels):
    out = work / "standalone"
    env = dict(os.environ, PYTHON=BASE_PYTHON, RAWRAG_PACKAGE_VENV=str(venv), RAWRAG_PACKAGE_WHEEL=str(dist["wheel"]),
               RAWRAG_PACKAGE_DIST=str(out), RAWRAG_PACKAGE_WORK=str(work / "pyinstaller"),
               RAWRAG_WHEEL_CACHE=str(reader_wheels.parent))
    built = run(["bash", str(REPO / "packaging" / "pyinstaller" / "build.sh")], env, REPO, "make package (build.sh)")
    assert "standalone build:" in built.stdout
    exe = out / "rawrag" / "rawrag"
    size = sum(f.stat().st_size for f in (out / "rawrag").rglob("*") if f.is_file() and not f.is_symlink())
    print(f"[packaging] standalone folder: {size / 2**20:.0f} MiB")

    # No venv, no Python on PATH, an empty HOME, run from an empty folder.
    home, cwd = work / "standalone-home", work / "standalone-cwd"
    home.mkdir()
    cwd.mkdir()
    env = clean_env(home, PATH=str(cwd))
    assert shutil.which("python3", path=env["PATH"]) is None
    assert run([str(exe), "--help"], env, cwd, "standalone: rawrag --help").stdout.startswith("usage: rawrag")
    demo = run([str(exe), "demo", "--no-ask"], env, cwd, "standalone: rawrag demo --no-ask")
    demo_home = home / ".local" / "share" / "rawrag" / "demo"
    assert "imported 4 conversations" in demo.stdout
    found = run([str(exe), "--home", str(demo_home), "search", "--json", "Jordan's dog"], env, cwd,
                "standalone: rawrag search --json")
    assert any("Biscuit" in m["text"] for h in json.loads(found.stdout)["hits"] for m in h["messages"])
    # The reader: llama.cpp's libraries and the GGUF from inside the folder, in
    # its own process (the same executable, re-run as the reader's worker).
    asked = run([str(exe), "--home", str(demo_home), "ask", "--json", "Where does Jordan live now?"], env, cwd,
                "standalone: rawrag ask")
    answer = json.loads(asked.stdout)
    assert answer["answer"].strip() and answer["evidence_tokens"] > 0, answer


def _tool_env(home: Path, reader_wheels: Path, tools: Path) -> dict[str, str]:
    """install.sh's world: only uv and the system on PATH; caches shared with the real user (downloads once)."""
    uv = Path(sys.executable).with_name("uv")
    assert uv.exists(), "uv is in the test extra (pyproject.toml)"
    tools.mkdir(exist_ok=True)
    if not (tools / "uv").exists():
        (tools / "uv").symlink_to(uv)
    return clean_env(home, PATH=f"{tools}:/usr/bin:/bin", RAWRAG_PYTHON=BASE_PYTHON,
                     RAWRAG_WHEEL_CACHE=str(reader_wheels.parent),
                     UV_CACHE_DIR=uv_cache())


def test_install_sh_installs_passes_doctor_and_a_second_run_upgrades_in_place(work, reader_wheels):
    home = work / "install-home"
    home.mkdir()
    env = _tool_env(home, reader_wheels, work / "tools")
    script = str(REPO / "packaging" / "install.sh")
    first = run(["bash", script], env, work, "install.sh (first run)", timeout=1800)
    out = first.stdout + first.stderr
    assert "installer: uv" in out and "all checks passed" in out, out[-3000:]
    assert out.index("already built") < out.index("building the rawrag wheel")  # the time is said up front
    rawrag = home / ".local" / "bin" / "rawrag"
    desktop = (home / ".local" / "share" / "applications" / "rawrag.desktop").read_text()
    assert f"Exec={rawrag}\n" in desktop and "Terminal=true" in desktop
    assert (home / ".local" / "share" / "icons" / "hicolor" / "scalable" / "apps" / "rawrag.svg").is_file()

    # The user's data, and a library file of the installed tool, before the second run.
    note = work / "note.jsonl"
    note.write_text('{"conversation": "n", "speaker": "Ann", "text": "the spare key is under the blue pot"}\n')
    run([str(rawrag), "import", str(note)], env, work, "rawrag import")
    numpy_init = next((home / ".local" / "share" / "uv" / "tools" / "rawrag-tui").rglob("numpy/__init__.py"))
    before = numpy_init.stat().st_mtime_ns

    second = run(["bash", script, "--no-doctor"], env, work, "install.sh (second run)", timeout=1800)
    assert "installed:" in second.stdout
    assert numpy_init.stat().st_mtime_ns == before  # only rawrag itself was replaced
    status = json.loads(run([str(rawrag), "status", "--json"], env, work, "rawrag status").stdout)
    assert status["messages"] == 1
    assert desktop == (home / ".local" / "share" / "applications" / "rawrag.desktop").read_text()


def _bin_with(folder: Path, **links: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, target in links.items():
        (folder / name).symlink_to(target)
    return folder


def test_install_sh_without_python_311_stops_in_one_line(work):
    home = work / "nopython-home"
    home.mkdir()
    # Only a Python older than 3.11 (a stand-in that fails the version check), and no other.
    bin_dir = _bin_with(work / "nopython-bin", dirname=shutil.which("dirname"), uname=shutil.which("uname"))
    old = bin_dir / "python3"
    old.write_text("#!/bin/sh\nexit 1\n")
    old.chmod(0o755)
    env = clean_env(home, PATH=str(bin_dir))
    proc = run([shutil.which("bash"), str(REPO / "packaging" / "install.sh")], env, work, "install.sh (no Python)",
               check=False)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Python 3.11 or newer is needed" in proc.stderr
    assert "apt install" in proc.stderr and "brew install" in proc.stderr
    assert list(home.iterdir()) == []  # nothing installed, nothing half-made


def test_install_sh_without_a_compiler_stops_before_changing_anything(work):
    home = work / "nocc-home"
    home.mkdir()
    bin_dir = _bin_with(work / "nocc-bin", dirname=shutil.which("dirname"), uname=shutil.which("uname"),
                        python3=BASE_PYTHON)
    env = clean_env(home, PATH=str(bin_dir), RAWRAG_WHEEL_CACHE=str(work / "no-reader-wheel-yet"))
    proc = run([shutil.which("bash"), str(REPO / "packaging" / "install.sh"), "--installer", "venv"], env, work,
               "install.sh (no compiler)", check=False)
    assert proc.returncode == 1 and proc.stdout == "", proc.stdout
    assert proc.stderr.count("\n") == 1 and "no C/C++ compiler was found" in proc.stderr
    assert "build-essential" in proc.stderr and "--no-reader" in proc.stderr
    assert list(home.iterdir()) == [] and not (work / "no-reader-wheel-yet").exists()
