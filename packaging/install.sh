#!/usr/bin/env bash
# Installs rawrag for this user, from this repository, in one command:
#
#     packaging/install.sh              # search + the local reader (answers)
#     packaging/install.sh --no-reader  # search only
#
# rawrag becomes a user tool (`uv tool install`; pipx when there is no uv; a
# private venv under the user's data directory when there is neither), built
# from a wheel of this repository. The reader's llama-cpp-python is built
# once with the portable flags (rawrag_tui/models/reader_build.py: x86-64-v3,
# no AMX, never -march=native) and installed only from that wheel.
#
# Everything that could stop the install (Python 3.11+, a C/C++ compiler when
# the reader must be compiled) is checked before anything is changed: a
# missing piece is one line saying what to install, and nothing is left half
# installed. Running it again upgrades in place; the user's data (the memory's
# home directory) is never touched. It ends by running `rawrag doctor`.
#
# Options:
#   --no-reader          search only (no llama.cpp build, no reader GGUF)
#   --installer KIND     uv | pipx | venv (default: the one used last time,
#                        else uv, else pipx, else venv)
#   --wheel FILE         install this rawrag wheel instead of building one
#   --no-desktop         do not install the Linux desktop entry and icon
#   --no-doctor          do not run `rawrag doctor` at the end
# Environment: RAWRAG_PYTHON (the Python to use), RAWRAG_WHEEL_CACHE (where
# the reader wheel is kept, default ~/.cache/rawrag/wheels), XDG_DATA_HOME,
# UV_TOOL_BIN_DIR / PIPX_BIN_DIR (where the `rawrag` command goes).
set -euo pipefail

say() { printf 'rawrag install: %s\n' "$*"; }
die() { printf 'rawrag install: %s\n' "$*" >&2; exit 1; }

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
READER=1 INSTALLER="" WHEEL="" DESKTOP=1 DOCTOR=1
while [ $# -gt 0 ]; do
    case "$1" in
        --no-reader) READER=0 ;;
        --installer) INSTALLER="${2:-}"; shift ;;
        --installer=*) INSTALLER="${1#*=}" ;;
        --wheel) WHEEL="${2:-}"; shift ;;
        --wheel=*) WHEEL="${1#*=}" ;;
        --no-desktop) DESKTOP=0 ;;
        --no-doctor) DOCTOR=0 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done
case "$INSTALLER" in ""|uv|pipx|venv) ;; *) die "--installer must be uv, pipx or venv, not '$INSTALLER'" ;; esac

# -- where things go ----------------------------------------------------------
case "$(uname -s)" in
    Darwin) DATA="$HOME/Library/Application Support" ;;
    *) DATA="${XDG_DATA_HOME:-$HOME/.local/share}" ;;
esac
STATE="$DATA/rawrag-app"            # the private venv and what this script remembers
BIN_DIR="${UV_TOOL_BIN_DIR:-${PIPX_BIN_DIR:-$HOME/.local/bin}}"

# -- checks: nothing is changed before they all pass --------------------------
PY=""
for candidate in ${RAWRAG_PYTHON:-} python3.13 python3.12 python3.11 python3; do
    if path="$(command -v "$candidate" 2>/dev/null)" \
        && "$path" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        PY="$path"; break
    fi
done
[ -n "$PY" ] || die "Python 3.11 or newer is needed and none was found on PATH: install it (Debian/Ubuntu: sudo apt install python3 python3-venv; Fedora: sudo dnf install python3; macOS: brew install python), then run this again"
"$PY" -c 'import venv, ensurepip' 2>/dev/null \
    || die "$PY cannot make virtual environments (no venv/ensurepip): install python3-venv (Debian/Ubuntu: sudo apt install python3-venv), then run this again"

if [ -z "$INSTALLER" ] && [ -f "$STATE/installer" ]; then INSTALLER="$(cat "$STATE/installer")"; fi
if [ -z "$INSTALLER" ]; then
    if command -v uv >/dev/null 2>&1; then INSTALLER=uv
    elif command -v pipx >/dev/null 2>&1; then INSTALLER=pipx
    else INSTALLER=venv; fi
fi
case "$INSTALLER" in
    uv) command -v uv >/dev/null 2>&1 || die "--installer uv: uv is not on PATH (install it: pipx install uv, or pip install --user uv), or use --installer venv" ;;
    pipx) command -v pipx >/dev/null 2>&1 || die "--installer pipx: pipx is not on PATH (install it: python3 -m pip install --user pipx), or use --installer venv" ;;
esac

if [ -n "$WHEEL" ]; then
    [ -f "$WHEEL" ] || die "--wheel $WHEEL: no such file"
    WHEEL="$(cd "$(dirname "$WHEEL")" && pwd)/$(basename "$WHEEL")"
else
    [ -f "$REPO/pyproject.toml" ] || die "$REPO is not the rawrag repository (no pyproject.toml): give a wheel with --wheel FILE"
fi

READER_BUILD="$REPO/rawrag_tui/models/reader_build.py"
READER_WHEELS="" READER_CACHED=0
if [ "$READER" = 1 ]; then
    [ -f "$READER_BUILD" ] || die "$READER_BUILD is missing: run this from the rawrag repository, or use --no-reader"
    READER_WHEELS="$("$PY" - "$READER_BUILD" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("reader_build", sys.argv[1])
rb = importlib.util.module_from_spec(spec); spec.loader.exec_module(rb)
print(rb.wheel_dir(), 1 if rb.find_wheel(rb.wheel_dir()) else 0)
PY
)"
    READER_CACHED="${READER_WHEELS##* }"; READER_WHEELS="${READER_WHEELS% *}"
    if [ "$READER_CACHED" = 0 ]; then
        cc_ok=0 cxx_ok=0
        for c in cc gcc clang; do command -v "$c" >/dev/null 2>&1 && cc_ok=1; done
        for c in c++ g++ clang++; do command -v "$c" >/dev/null 2>&1 && cxx_ok=1; done
        [ "$cc_ok$cxx_ok" = 11 ] || die "the reader (llama.cpp) is compiled once on this machine and no C/C++ compiler was found: install one (Debian/Ubuntu: sudo apt install build-essential; Fedora: sudo dnf install gcc-c++; macOS: xcode-select --install), or run with --no-reader for search only"
        "$PY" -m pip --version >/dev/null 2>&1 \
            || die "the reader build needs pip in $PY: install it (Debian/Ubuntu: sudo apt install python3-pip), or set RAWRAG_PYTHON to a Python that has pip, or use --no-reader"
    fi
fi

# -- the plan, with its time ---------------------------------------------------
say "Python: $PY ($("$PY" -c 'import platform; print(platform.python_version())')); installer: $INSTALLER"
if [ "$READER" = 0 ]; then
    say "search only (--no-reader): about a minute (the download is ~130 MB)"
elif [ "$READER_CACHED" = 1 ]; then
    say "the reader's llama.cpp is already built ($READER_WHEELS); installing takes 1-3 minutes (the bundled reader model is ~490 MB)"
else
    say "the reader's llama.cpp is compiled once, portably: 5-20 minutes (8 CPU-minutes on a 2-core VM), with a progress line every 30 s; then 1-3 minutes to install"
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/rawrag-install.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# -- the reader's portable wheel (built once, kept between installs) ------------
if [ "$READER" = 1 ]; then
    READER_WHEELS="$("$PY" "$READER_BUILD" wheel)" || die "the reader build failed (see above); nothing was installed. Try again, or use --no-reader"
fi

# -- rawrag's own wheel ----------------------------------------------------------
if [ -z "$WHEEL" ]; then
    say "building the rawrag wheel from $REPO"
    # From a clean copy of what the wheel is made of: an in-tree build would
    # reuse build/lib, where files deleted from the source live on.
    mkdir "$WORK/src"
    cp -R "$REPO/pyproject.toml" "$REPO/README.md" "$REPO/rawrag_tui" "$WORK/src/"
    find "$WORK/src" -name __pycache__ -prune -exec rm -rf {} +
    if "$PY" -m pip --version >/dev/null 2>&1; then
        "$PY" -m pip wheel --quiet --no-deps --wheel-dir "$WORK" "$WORK/src" >"$WORK/wheel.log" 2>&1 \
            || { tail -20 "$WORK/wheel.log" >&2; die "building the rawrag wheel failed; nothing was installed"; }
    elif command -v uv >/dev/null 2>&1; then
        uv build --quiet --wheel --out-dir "$WORK" "$WORK/src" \
            || die "building the rawrag wheel failed; nothing was installed"
    else
        die "$PY has no pip and there is no uv to build the rawrag wheel: install python3-pip (or uv), then run this again"
    fi
    WHEEL="$(ls "$WORK"/rawrag_tui-*.whl)"
fi
EXTRA=""; [ "$READER" = 1 ] && EXTRA="[reader]"
REQ="rawrag-tui$EXTRA @ file://$WHEEL"

# -- install (or upgrade in place) -------------------------------------------------
mkdir -p "$STATE" "$BIN_DIR"
chmod 700 "$STATE"
case "$INSTALLER" in
    uv)
        args=(--python "$PY" --reinstall-package rawrag-tui)
        [ "$READER" = 1 ] && args+=(--find-links "$READER_WHEELS" --no-build-package llama-cpp-python)
        UV_TOOL_BIN_DIR="$BIN_DIR" uv tool install "${args[@]}" "$REQ" || die "uv tool install failed (see above)"
        ;;
    pipx)
        pip_args="--only-binary llama-cpp-python"
        [ "$READER" = 1 ] && pip_args="$pip_args --find-links $READER_WHEELS"
        PIPX_BIN_DIR="$BIN_DIR" pipx install --force --python "$PY" --pip-args="$pip_args" "$REQ" \
            || die "pipx install failed (see above)"
        ;;
    venv)
        VENV="$STATE/venv"
        if [ ! -x "$VENV/bin/python" ]; then
            "$PY" -m venv "$VENV" || die "could not make $VENV"
        fi
        pip=("$VENV/bin/python" -m pip --disable-pip-version-check)
        links=(); [ "$READER" = 1 ] && links=(--find-links "$READER_WHEELS")
        "${pip[@]}" install --quiet --only-binary llama-cpp-python "${links[@]}" "$REQ" \
            || die "pip install into $VENV failed (see above)"
        # Same version, new build: replace rawrag's own files, nothing else.
        "${pip[@]}" install --quiet --force-reinstall --no-deps "$WHEEL" || die "pip could not replace rawrag in $VENV"
        ln -sfn "$VENV/bin/rawrag" "$BIN_DIR/rawrag"
        ;;
esac
printf '%s\n' "$INSTALLER" >"$STATE/installer"
RAWRAG="$BIN_DIR/rawrag"
[ -x "$RAWRAG" ] || die "the install finished but $RAWRAG is missing"
say "installed: $RAWRAG ($("$RAWRAG" --version 2>/dev/null || echo rawrag))"

# -- Linux desktop entry: the app in the user's terminal ---------------------------
if [ "$DESKTOP" = 1 ] && [ "$(uname -s)" = Linux ]; then
    apps="$DATA/applications" icons="$DATA/icons/hicolor/scalable/apps"
    mkdir -p "$apps" "$icons"
    install -m 644 "$HERE/linux/rawrag.svg" "$icons/rawrag.svg"
    sed "s|@EXEC@|$RAWRAG|g" "$HERE/linux/rawrag.desktop" >"$apps/rawrag.desktop"
    chmod 644 "$apps/rawrag.desktop"
    command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" 2>/dev/null || true
    say "desktop entry: $apps/rawrag.desktop (opens rawrag in your terminal)"
fi

case ":$PATH:" in
    *":$BIN_DIR:"*) ;;
    *) say "note: $BIN_DIR is not on your PATH; add it (e.g. export PATH=\"$BIN_DIR:\$PATH\" in ~/.profile) or run $RAWRAG" ;;
esac

# -- the check -----------------------------------------------------------------------
if [ "$DOCTOR" = 1 ]; then
    say "running rawrag doctor (every part once; the first run also unpacks the bundled models)"
    if "$RAWRAG" doctor; then
        say "done: run 'rawrag demo' to try it on a sample history, 'rawrag import FILE' for your own, 'rawrag' for the app"
    elif [ "$READER" = 0 ]; then
        say "installed search only (--no-reader): the reader checks above fail by design; run this again without --no-reader to add answers"
    else
        die "rawrag is installed but doctor found a problem: see its fix lines above"
    fi
else
    say "done"
fi
