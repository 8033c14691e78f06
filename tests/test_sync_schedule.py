"""`rawrag sync --install` / `--uninstall`: a systemd user timer that leaves nothing behind, and doctor's report.

Run with a temporary XDG_CONFIG_HOME and no user bus, so systemctl is never
asked to enable anything on the machine running the tests; the unit is
checked with `systemd-analyze verify` where that tool exists.
"""

from __future__ import annotations

import json
import plistlib
import shutil
import subprocess

import pytest

from rawrag_tui.doctor import check_sync_schedule
from rawrag_tui.sync import schedule

from .conftest import run_cli


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "no-runtime"))  # no user bus here
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    return tmp_path / "config"


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="systemd units are Linux's")
def test_install_then_uninstall_leaves_no_unit_behind(config, tmp_path):
    home = tmp_path / "rr"
    code, out, err = run_cli("sync", "--install", "--every", "30", "--json", home=home)
    assert code == 0, err
    done = json.loads(out)
    units = config / "systemd" / "user"
    assert sorted(p.name for p in units.iterdir()) == ["rawrag-sync.service", "rawrag-sync.timer"]
    assert done["kind"] == "systemd" and not done["enabled"]
    assert "systemctl --user enable --now rawrag-sync.timer" in done["note"]  # says how to enable it
    timer = (units / "rawrag-sync.timer").read_text()
    assert "OnUnitActiveSec=30min" in timer and "WantedBy=timers.target" in timer
    service = (units / "rawrag-sync.service").read_text()
    assert f"--home {home} sync --quiet" in service and "Type=oneshot" in service

    check = check_sync_schedule()  # what `rawrag doctor` lists (the whole doctor loads every model)
    assert check.ok and "every 30 minutes" in check.summary and check.name == "sync schedule"

    code, out, err = run_cli("sync", "--uninstall", "--json", home=home)
    assert code == 0, err
    assert len(json.loads(out)["removed"]) == 2
    assert list(units.iterdir()) == []
    assert schedule.installed() is None
    code, out, _ = run_cli("sync", "--uninstall", home=home)
    assert code == 0 and "no systemd schedule was installed" in out


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not on this machine")
def test_the_units_pass_systemd_analyze_verify(config, tmp_path):
    folder = tmp_path / "units"
    folder.mkdir()
    for name, text in schedule.unit_texts(tmp_path / "a home with spaces", 15).items():
        (folder / name).write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", str(folder / schedule.SERVICE),
                           str(folder / schedule.TIMER)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    problems = [line for line in done.stderr.splitlines() if "rawrag-sync" in line]
    assert problems == []


def test_launchd_agent_on_macos_written_and_removed(tmp_path):
    env = {"HOME": str(tmp_path)}
    done = schedule.install(tmp_path / "rr", 20, environ=env, platform="darwin")
    plist = plistlib.loads(schedule.launchd_path(env).read_bytes())
    assert plist["StartInterval"] == 20 * 60 and plist["ProgramArguments"][-2:] == ["sync", "--quiet"]
    assert schedule.installed(env, platform="darwin")["every"] == 20
    assert done["kind"] == "launchd"
    assert schedule.uninstall(env, platform="darwin")["removed"] == [str(schedule.launchd_path(env))]
    assert not schedule.launchd_path(env).exists()


def test_a_bad_interval_is_one_line(config, tmp_path):
    code, _, err = run_cli("sync", "--install", "--every", "0", home=tmp_path / "rr")
    assert code == 1 and err.strip() == "rawrag: error: --every 0: give a number of minutes, 1 or more"
