"""A bug exits 3 with one line and a private log; a home that cannot be one is one line, exit 1."""

from __future__ import annotations

import stat

import pytest

from rawrag_tui import cli
from rawrag_tui.commands import status as status_command

from .conftest import run_cli


def test_a_crash_is_one_line_exit_3_and_a_private_log_under_the_home(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"

    def broken(args):
        raise RuntimeError("the index is upside down\nsecond line")

    monkeypatch.setattr(status_command, "run", broken)  # registered by name when main builds its parser
    assert cli.main(["--home", str(home), "status"]) == cli.EXIT_INTERNAL
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("rawrag: internal error") and "RuntimeError" in err
    logs = list((home / "logs").glob("rawrag-crash-*.log"))
    assert len(logs) == 1 and str(logs[0]) in err
    assert "Traceback" in logs[0].read_text() and "upside down" in logs[0].read_text()
    assert stat.S_IMODE(logs[0].stat().st_mode) == 0o600
    assert stat.S_IMODE((home / "logs").stat().st_mode) == 0o700


@pytest.mark.parametrize("command", [("status",), ("search", "anything")])
def test_a_home_that_is_a_file_is_one_line_and_exit_1(tmp_path, command):
    not_a_folder = tmp_path / "home"
    not_a_folder.write_text("I am a file")
    code, _out, err = run_cli(*command, home=not_a_folder)
    assert code == 1, err
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert str(not_a_folder) in err and "cannot be used as a rawrag data folder" in err
    assert not_a_folder.read_text() == "I am a file"


def test_a_home_below_a_file_is_one_line_and_exit_1(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _out, err = run_cli("status", home=blocker / "below")
    assert code == 1 and "Traceback" not in err and err.strip().count("\n") == 0, err
