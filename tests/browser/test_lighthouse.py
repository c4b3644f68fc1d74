"""Lighthouse on a phone: the score sheet stays at 100 for accessibility and for best practices."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.browser.taps import start_game
from tests.waiting import PATIENCE_SECONDS

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
LOAD_WAIT_MS = 6_000
"""The live stream keeps a connection open, so the network never falls quiet: Lighthouse audits after this."""


@pytest.mark.skipif(not LIGHTHOUSE.exists(), reason="lighthouse is installed by npm ci (make test)")
def test_the_sheet_scores_100_for_accessibility_and_best_practices(phone: Page, live_server: str, tmp_path: Path) -> None:
    sheet = start_game(phone, live_server, ["Anna", "Ben", "Cleo"])
    phone.locator(".pass-boxes").first.click()
    phone.locator(".pass-boxes .box.crossed").wait_for()
    report = tmp_path / "lighthouse.json"
    subprocess.run(
        [
            str(LIGHTHOUSE),
            sheet,
            "--quiet",
            "--form-factor=mobile",
            "--throttling-method=provided",
            "--only-categories=accessibility,best-practices",
            f"--max-wait-for-load={LOAD_WAIT_MS}",
            "--disable-full-page-screenshot",
            "--chrome-flags=--headless=new --no-sandbox",
            "--output=json",
            f"--output-path={report}",
        ],
        env={**os.environ, "CHROME_PATH": shutil.which("chromium") or "/usr/bin/chromium"},
        check=True,
        capture_output=True,
        timeout=PATIENCE_SECONDS * 6,  # a whole audit of the page takes minutes on a busy machine
    )
    result = json.loads(report.read_text())
    failing = [
        f"{audit['id']}: {audit['title']}"
        for audit in result["audits"].values()
        if audit.get("scoreDisplayMode") in ("binary", "numeric") and audit.get("score") is not None and audit["score"] < 1
    ]
    scores = {name: category["score"] for name, category in result["categories"].items()}
    assert scores == {"accessibility": 1, "best-practices": 1}, failing
