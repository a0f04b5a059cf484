"""ip/acc_shell/doc/acc_shell.md's Area table quotes the synthesis reports it
names, figure for figure."""

from __future__ import annotations

import re

from bikeco import hwrecord
from hwflow.paths import HW

SHELL = HW / "ip" / "acc_shell"
ROW = re.compile(
    r"^\| .*\(`([\w/]+)`\) \| ([\d,]+) \(([\d,]+)\) \| ([\d,]+) \| ([\d.]+) \| (\d+) \|$", re.M
)


def test_area_table_matches_the_reports() -> None:
    text = (SHELL / "doc" / "acc_shell.md").read_text()
    area = text[text.index("## Area") :]
    rows = ROW.findall(area)
    assert len(rows) >= 10
    for name, lut, lut_ram, ff, ramb36, depth in rows:
        path = HW / f"{name}.json" if "/" in name else SHELL / "syn" / "reports" / f"{name}.json"
        rep = hwrecord.load_report(path)
        blocks = rep.ramb36 + rep.ramb18 / 2
        want = (f"{rep.lut:,}", f"{rep.lut_ram:,}", f"{rep.ff:,}", f"{blocks:g}", rep.lut_depth)
        got = (lut, lut_ram, ff, ramb36, int(depth))
        assert got == want, f"acc_shell.md Area: {name}"
