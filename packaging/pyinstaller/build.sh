#!/usr/bin/env bash
# `make package`: the standalone one-folder build, dist/rawrag/, whose
# `dist/rawrag/rawrag` runs on a machine without Python.
#
# It is made from the product, not the working tree: the rawrag wheel
# (python -m build) installed with its [reader] extra into a venv of its own
# (build/package/venv), the reader's llama-cpp-python from the portable wheel
# (rawrag_tui/models/reader_build.py), then PyInstaller with rawrag.spec.
#
# Environment (the test reuses what it already made):
#   PYTHON                 the Python 3.11+ to build with (default python3)
#   RAWRAG_PACKAGE_VENV    the build venv (made when missing)
#   RAWRAG_PACKAGE_WHEEL   a rawrag wheel already built (default: build one)
#   RAWRAG_PACKAGE_DIST    where the rawrag/ folder goes (default dist/)
#   RAWRAG_PACKAGE_WORK    PyInstaller's work folder (default build/package)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PY="${PYTHON:-python3}"
WORK="${RAWRAG_PACKAGE_WORK:-$REPO/build/package}"
VENV="${RAWRAG_PACKAGE_VENV:-$WORK/venv}"
DIST="${RAWRAG_PACKAGE_DIST:-$REPO/dist}"
WHEEL="${RAWRAG_PACKAGE_WHEEL:-}"
mkdir -p "$WORK" "$DIST"
started=$(date +%s)

if [ -z "$WHEEL" ]; then
    # From a clean copy: an in-tree build would reuse build/lib, stale files and all.
    rm -rf "$WORK/wheel" "$WORK/src"
    mkdir -p "$WORK/src"
    cp -R "$REPO/pyproject.toml" "$REPO/README.md" "$REPO/rawrag_tui" "$WORK/src/"
    find "$WORK/src" -name __pycache__ -prune -exec rm -rf {} +
    "$PY" -m pip wheel --quiet --no-deps --wheel-dir "$WORK/wheel" "$WORK/src"
    WHEEL="$(ls "$WORK"/wheel/rawrag_tui-*.whl)"
fi
READER_WHEELS="$("$PY" "$REPO/rawrag_tui/models/reader_build.py" wheel)"

if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
fi
pip=("$VENV/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet --only-binary llama-cpp-python --find-links "$READER_WHEELS" "$WHEEL[reader,package]"
"${pip[@]}" install --quiet --force-reinstall --no-deps "$WHEEL"

# PyInstaller runs from outside the repository, so only the installed
# package (never the working tree's rawrag_tui/) can be bundled.
(cd "$WORK" && "$VENV/bin/pyinstaller" --noconfirm --log-level WARN \
    --distpath "$DIST" --workpath "$WORK/pyinstaller" "$HERE/rawrag.spec")

echo "standalone build: $DIST/rawrag ($(du -sh "$DIST/rawrag" | cut -f1), $(( $(date +%s) - started )) s)"
