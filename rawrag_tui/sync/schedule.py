"""`rawrag sync --install`: run `rawrag sync` every N minutes, by the system's own scheduler.

Linux: a systemd user service and timer in ``$XDG_CONFIG_HOME/systemd/user``
(``~/.config/systemd/user``). They are enabled with ``systemctl --user`` only
where systemctl exists and a user bus answers; elsewhere (a container, an
SSH session without lingering) the files are written and the report says
which command enables them. macOS: a launchd agent in
``~/Library/LaunchAgents``, loaded with launchctl. ``--uninstall`` disables
and removes them, leaving nothing behind.
"""

from __future__ import annotations

import os
import plistlib
import shlex
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import UserError

SERVICE = "rawrag-sync.service"
TIMER = "rawrag-sync.timer"
AGENT = "local.rawrag.sync"
DEFAULT_EVERY = 15


def _env(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def command(home: Path | None) -> list[str]:
    """The command the scheduler runs: this Python and this rawrag, so a venv install keeps working."""
    argv = [sys.executable, "-m", "rawrag_tui.cli"]
    if home is not None:
        argv += ["--home", str(home)]
    return [*argv, "sync", "--quiet"]


def systemd_dir(environ: Mapping[str, str] | None = None) -> Path:
    env = _env(environ)
    home = Path(env.get("HOME") or Path.home())
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    return base / "systemd" / "user"


def launchd_path(environ: Mapping[str, str] | None = None) -> Path:
    return Path(_env(environ).get("HOME") or Path.home()) / "Library" / "LaunchAgents" / f"{AGENT}.plist"


def _systemd_quote(arg: str) -> str:
    """One ExecStart word: quoted when it holds spaces or quotes; '%' and '$' escaped (systemd.service(5))."""
    arg = arg.replace("%", "%%").replace("$", "$$")
    if any(ch in arg for ch in " \t\"'\\"):
        return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return arg


def unit_texts(home: Path | None, every: int) -> dict[str, str]:
    """The service and timer, by file name."""
    exec_start = " ".join(_systemd_quote(a) for a in command(home))
    service = (
        "[Unit]\n"
        "Description=rawrag sync: import new chat history (Claude Code, Codex, added folders)\n\n"
        "[Service]\n"
        "Type=oneshot\n"
        f"ExecStart={exec_start}\n"
        "Nice=10\n"
        "IOSchedulingClass=idle\n"
    )
    timer = (
        "[Unit]\n"
        f"Description=Run rawrag sync every {every} minutes\n\n"
        "[Timer]\n"
        "OnBootSec=2min\n"
        f"OnUnitActiveSec={every}min\n"
        f"Unit={SERVICE}\n\n"
        "[Install]\n"
        "WantedBy=timers.target\n"
    )
    return {SERVICE: service, TIMER: timer}


def _user_bus(env: Mapping[str, str]) -> bool:
    """Whether ``systemctl --user`` can reach a user manager (its bus socket exists)."""
    address = env.get("DBUS_SESSION_BUS_ADDRESS", "")
    if address.startswith("unix:path="):
        return Path(address.split("=", 1)[1].split(",", 1)[0]).exists()
    runtime = env.get("XDG_RUNTIME_DIR")
    return runtime is not None and runtime != "" and (Path(runtime) / "bus").exists()


def _systemctl(env: Mapping[str, str], *args: str) -> str | None:
    """Run ``systemctl --user ARGS`` when it can work; None when done, else why it was not."""
    if shutil.which("systemctl") is None:
        return "systemctl is not on this system"
    if not _user_bus(env):
        return "no systemd user session is reachable from here"
    done = subprocess.run(["systemctl", "--user", *args], capture_output=True, text=True, env=dict(env), timeout=60)
    return None if done.returncode == 0 else (done.stderr.strip() or f"systemctl exited {done.returncode}")


def install(home: Path | None, every: int = DEFAULT_EVERY, environ: Mapping[str, str] | None = None,
            platform: str | None = None) -> dict[str, Any]:
    """Write (and where possible enable) the schedule; returns {kind, files, every, enabled, note}."""
    if every < 1:
        raise UserError(f"--every {every}: give a number of minutes, 1 or more")
    env = _env(environ)
    platform = platform or sys.platform
    if platform == "darwin":
        path = launchd_path(env)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(plistlib.dumps({"Label": AGENT, "ProgramArguments": command(home),
                                         "StartInterval": every * 60, "RunAtLoad": True, "ProcessType": "Background"}))
        why = _launchctl("load", "-w", str(path))
        return {"kind": "launchd", "files": [str(path)], "every": every, "enabled": why is None,
                "note": why and f"{why}; load it with: launchctl load -w {shlex.quote(str(path))}"}
    if not platform.startswith("linux"):
        raise UserError(f"--install knows systemd (Linux) and launchd (macOS), not {platform}: "
                        "run `rawrag sync` from your own scheduler")
    folder = systemd_dir(env)
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for name, text in unit_texts(home, every).items():
        (folder / name).write_text(text, encoding="utf-8")
        files.append(str(folder / name))
    why = _systemctl(env, "daemon-reload") or _systemctl(env, "enable", "--now", TIMER)
    return {"kind": "systemd", "files": files, "every": every, "enabled": why is None,
            "note": why and f"{why}; enable it with: systemctl --user daemon-reload && "
                            f"systemctl --user enable --now {TIMER}"}


def _launchctl(*args: str) -> str | None:
    if shutil.which("launchctl") is None:
        return "launchctl is not on this system"
    done = subprocess.run(["launchctl", *args], capture_output=True, text=True, timeout=60)
    return None if done.returncode == 0 else (done.stderr.strip() or f"launchctl exited {done.returncode}")


def uninstall(environ: Mapping[str, str] | None = None, platform: str | None = None) -> dict[str, Any]:
    """Disable and remove the schedule; returns {kind, removed: [paths]}."""
    env = _env(environ)
    platform = platform or sys.platform
    if platform == "darwin":
        path = launchd_path(env)
        if path.exists():
            _launchctl("unload", "-w", str(path))
            path.unlink()
            return {"kind": "launchd", "removed": [str(path)]}
        return {"kind": "launchd", "removed": []}
    folder = systemd_dir(env)
    present = [folder / name for name in (TIMER, SERVICE) if (folder / name).exists()]
    if present:
        _systemctl(env, "disable", "--now", TIMER)
    for path in present:
        path.unlink()
    if present:
        _systemctl(env, "daemon-reload")
    return {"kind": "systemd", "removed": [str(p) for p in present]}


def installed(environ: Mapping[str, str] | None = None, platform: str | None = None) -> dict[str, Any] | None:
    """The schedule in place, for `rawrag doctor`: {kind, files, every}; None when there is none."""
    env = _env(environ)
    platform = platform or sys.platform
    if platform == "darwin":
        path = launchd_path(env)
        if not path.exists():
            return None
        interval = plistlib.loads(path.read_bytes()).get("StartInterval", 0)
        return {"kind": "launchd", "files": [str(path)], "every": interval // 60}
    timer = systemd_dir(env) / TIMER
    if not timer.exists():
        return None
    every = next((line.split("=", 1)[1].removesuffix("min") for line in timer.read_text().splitlines()
                  if line.startswith("OnUnitActiveSec=")), "?")
    return {"kind": "systemd", "files": [str(timer), str(systemd_dir(env) / SERVICE)],
            "every": int(every) if every.isdigit() else every}
