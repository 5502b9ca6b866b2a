"""The README's and docs' examples (examples/*.py) run as a user runs them, against the server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, base_url: str, *args: str) -> str:
    env = dict(os.environ, TAI_BASE_URL=base_url, TAI_API_KEY="DEMO_KEY")
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_first_calls(base_url: str, expect: Dict[str, Any]) -> None:
    out = run("first_calls.py", base_url)
    assert f"{expect['funds']} funds in dataset {expect['dataset_version']}" in out
    assert f"{expect['assets']} assets in the registry" in out
    assert "404 Asset not found: request " in out
    assert "rate limit: demo tier, " in out
    assert f"point in time: {expect['dataset_version']}" in out
    assert f"of {expect['eur_stablecoins']} EUR stablecoins authorised under MiCA" in out
    assert f"verified: signed by key {expect['key_id']}" in out


def test_market_share_chart(base_url: str, tmp_path: Path) -> None:
    png = tmp_path / "share.png"
    out = run("market_share_chart.py", base_url, str(png))
    assert out.startswith(f"wrote {png}: ")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"do not edit" in data  # the generated banner, in the PNG's metadata
