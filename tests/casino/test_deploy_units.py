"""The service units of deploy/systemd/ as systemd reads them: `systemd-analyze verify` on each,
with the install path (/opt/casino) pointed at this checkout so its commands exist. An unknown
directive, a misspelt section or a command that is not there fails here rather than on the floor's
first boot. Skipped where systemd's tools are not installed."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = sorted((ROOT / "deploy" / "systemd").glob("*.service"))
ANALYZE = shutil.which("systemd-analyze")

pytestmark = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed here")


def test_every_unit_is_listed():
    assert {u.name for u in UNITS} >= {
        "casino-web.service",
        "casino-worker@.service",
        "casino-beat.service",
        "casino-live.service",
        "casino-witness.service",
    }


@pytest.mark.parametrize("unit", UNITS, ids=lambda u: u.name)
def test_systemd_reads_the_unit_without_a_complaint(unit, tmp_path):
    venv = Path(sys.prefix)
    text = unit.read_text(encoding="utf-8").replace("/opt/casino/.venv", str(venv)).replace("/opt/casino", str(ROOT))
    name = unit.name.replace("@.service", "@audit.service")  # a template is verified as one instance
    copy = tmp_path / name
    copy.write_text(text, encoding="utf-8")
    result = subprocess.run(
        [ANALYZE, "verify", "--man=no", str(copy)], capture_output=True, text=True, timeout=60, check=False
    )
    complaints = [
        line
        for line in (result.stdout + result.stderr).splitlines()
        # A line about our unit (an unknown key, a missing command); the host's own units are not ours.
        if line.strip() and (name in line or "nknown" in line)
    ]
    assert result.returncode == 0 and not complaints, result.stdout + result.stderr
