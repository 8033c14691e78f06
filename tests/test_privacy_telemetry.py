"""Nothing leaves the machine, not even a third party's telemetry queue.

ONNX Runtime 1.32 writes a device id and queues telemetry events under
``~/.cache/Microsoft/DeveloperTools`` as soon as it is imported (621 events
were queued by a day's use). rawrag turns that off before it loads; and the
quantizer's advice to model builders never reaches the person importing.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rawrag_tui.demo import demo_path

from .conftest import REPO

#: ONNX Runtime sends nothing where these say a CI service or its own tests run (CI itself sets
#: CI=true): without them, the checks below see what a person's machine sees.
CI_SIGNS = ("CI", "TF_BUILD", "GITHUB_ACTIONS", "GITLAB_CI", "JENKINS_URL", "TRAVIS", "CIRCLECI", "BUILDKITE",
            "TEAMCITY_VERSION", "ORT_RUNNING_UNIT_TESTS", "ORT_DISABLE_TELEMETRY")


def _as_a_person(**extra: str) -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in CI_SIGNS} | extra


def _rawrag(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rawrag_tui.cli", *args], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=600)


def test_import_and_search_leave_no_telemetry_and_no_quantizer_advice(tmp_path):
    home = tmp_path / "user"  # a fresh $HOME: the models' own caches are built here too
    env = _as_a_person(HOME=str(home), RAWRAG_HOME=str(tmp_path / "memory"), XDG_CACHE_HOME=str(home / ".cache"))
    for args in (("import", str(demo_path())), ("search", "Biscuit"), ("status",)):
        done = _rawrag(*args, env=env)
        assert done.returncode == 0, done.stderr
        assert "pre-processing before quantization" not in done.stderr + done.stdout
    assert not (home / ".cache" / "Microsoft").exists(), sorted(str(p) for p in home.rglob("*"))


def test_the_switch_is_what_keeps_the_queue_empty(tmp_path):
    """The check above can fail: without rawrag's switch, importing ONNX Runtime creates the queue."""
    env = _as_a_person(HOME=str(tmp_path))
    subprocess.run([sys.executable, "-c", "import onnxruntime"], env=env, check=True, timeout=300)
    queue = Path(tmp_path) / ".cache" / "Microsoft" / "DeveloperTools"
    assert queue.exists()
