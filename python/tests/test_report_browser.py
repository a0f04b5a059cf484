"""The report as a web page, in a real browser: headless Chromium opens index.html (built here
from the fixture inputs, as the golden tests do) and reports what it rendered.

A small checker page beside index.html loads it in an iframe (file access between the two
allowed by --allow-file-access-from-files) and, once everything has loaded, writes what it
sees into its own DOM, which ``chromium --dump-dom`` prints: each image's natural size, each
table's rendered rows and height, and whether each link of the contents finds its target.
Screenshots of the top of the page and of one device's section are saved beside the report
(``build/report-browser/`` or ``$BIKECO_BROWSER_OUT``; not committed).

Skipped, with the reason, when Chromium is not installed (scripts/setup.sh installs Debian's
``chromium``); ``make test-python`` sets BIKECO_TESTS_REQUIRED=1, which makes that a failure.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bikeco.paths import repo_root
from bikeco.report import ReportOptions, write_report

CHECKER = """<!DOCTYPE html>
<html><head><meta charset="utf-8"></head><body>
<iframe id="page" src="index.html" width="1280" height="2000"></iframe>
<pre id="result">not loaded</pre>
<script>
window.addEventListener("load", () => {
  const d = document.getElementById("page").contentDocument;
  const images = [...d.images].map(i => ({
    src: i.getAttribute("src"), complete: i.complete, width: i.naturalWidth,
    height: i.naturalHeight}));
  const tables = [...d.querySelectorAll("table")].map(t => ({
    id: t.id, rows: t.rows.length, cells: t.querySelectorAll("td").length,
    height: t.getBoundingClientRect().height}));
  const links = [...d.querySelectorAll("nav a")].map(a => ({
    href: a.getAttribute("href"),
    found: d.getElementById(a.getAttribute("href").slice(1)) !== null}));
  document.getElementById("result").textContent =
    JSON.stringify({title: d.title, images, tables, links});
});
</script></body></html>
"""

DEVICE_FRAME = """<!DOCTYPE html>
<html><body style="margin:0"><iframe src="index.html#device-xc7z020"
style="border:0;width:100vw;height:100vh"></iframe></body></html>
"""


def _required() -> bool:
    return os.environ.get("BIKECO_TESTS_REQUIRED") == "1"


def _chromium() -> str:
    for name in (os.environ.get("CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return name
    msg = "Chromium is not installed (apt-get install chromium; scripts/setup.sh does)"
    if _required():
        pytest.fail(msg)
    pytest.skip(msg)


def _run(browser: str, *args: str) -> str:
    # --no-sandbox: CI and the set-up run as root, where Chromium's sandbox refuses to start.
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)} failed: {proc.stderr[-2000:]}"
    return proc.stdout


@pytest.fixture(scope="module")
def rendered(fixtures_dir: Path) -> tuple[Path, dict[str, Any]]:
    browser = _chromium()
    out = Path(os.environ.get("BIKECO_BROWSER_OUT", str(repo_root() / "build" / "report-browser")))
    shutil.rmtree(out, ignore_errors=True)
    code = write_report(
        ReportOptions(
            out=out,
            bench_json=fixtures_dir / "bench_l1.json",
            hw_results=fixtures_dir / "hw_results",
            progress=False,
        )
    )
    assert code == 0
    (out / "check.html").write_text(CHECKER, encoding="utf-8")
    dom = _run(
        browser, "--allow-file-access-from-files", "--dump-dom", (out / "check.html").as_uri()
    )
    found = re.search(r'<pre id="result">(.*?)</pre>', dom, re.S)
    assert found, "the checker page did not render"
    text = html.unescape(found.group(1))
    assert text != "not loaded", "the report page never finished loading"
    page = (out / "index.html").as_uri()
    _run(browser, "--window-size=1280,1400", f"--screenshot={out / 'screenshot.png'}", page)
    # A device's section, reached by its anchor (through a frame: Chromium's --screenshot of a
    # URL with a fragment captures a blank page).
    (out / "device.html").write_text(DEVICE_FRAME, encoding="utf-8")
    _run(
        browser,
        "--window-size=1280,1000",
        f"--screenshot={out / 'screenshot-device.png'}",
        (out / "device.html").as_uri(),
    )
    print(f"browser test: report and screenshots in {out}")
    result: dict[str, Any] = json.loads(text)
    return out, result


@pytest.fixture(scope="module")
def fixtures_dir() -> Path:
    return Path(__file__).parent / "fixtures"


def test_every_image_loads(rendered: tuple[Path, dict[str, Any]]) -> None:
    out, result = rendered
    pngs = sorted(p.name for p in out.glob("*.png") if not p.name.startswith("screenshot"))
    assert sorted(i["src"] for i in result["images"]) == pngs
    for img in result["images"]:
        assert img["complete"] and img["width"] > 0 and img["height"] > 0, img


def test_every_table_renders(rendered: tuple[Path, dict[str, Any]]) -> None:
    out, result = rendered
    csvs = {p.stem: p for p in (out / "tables").glob("*.csv")}
    assert sorted(t["id"] for t in result["tables"]) == sorted(f"table-{n}" for n in csvs)
    for t in result["tables"]:
        with csvs[t["id"].removeprefix("table-")].open(encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
        assert t["rows"] == len(rows), t
        assert t["cells"] == sum(len(r) for r in rows[1:]), t
        assert t["height"] > 0, t


def test_contents_reach_every_section_and_device(rendered: tuple[Path, dict[str, Any]]) -> None:
    out, result = rendered
    hrefs = [link["href"] for link in result["links"]]
    assert all(link["found"] for link in result["links"]), result["links"]
    devices = [p.stem.removeprefix("pareto_") for p in out.glob("pareto_*.png")]
    assert devices and all(f"#device-{d}" in hrefs for d in devices)
    for shot in ("screenshot.png", "screenshot-device.png"):
        assert (out / shot).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
