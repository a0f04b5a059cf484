"""bikeco's version is libbike's: bike.h states it once (BIKE_VERSION_STRING),
the package's __version__ (and through it pyproject's) must agree."""

import re
from pathlib import Path

import bikeco

BIKE_H = Path(__file__).resolve().parents[2] / "lib" / "include" / "bike" / "bike.h"


def test_version_is_libbikes() -> None:
    m = re.search(r'#define BIKE_VERSION_STRING "([^"]+)"', BIKE_H.read_text())
    assert m, f"no BIKE_VERSION_STRING in {BIKE_H}"
    assert bikeco.__version__ == m.group(1)
