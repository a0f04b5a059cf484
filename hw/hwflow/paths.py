"""Where the flow reads and writes (overridable by the environment)."""

from __future__ import annotations

import os
from pathlib import Path

HW = Path(__file__).resolve().parent.parent
REPO = HW.parent
RESULTS = HW / "results"


def build_dir() -> Path:
    """Scratch folder of simulations and synthesis runs."""
    return Path(os.environ.get("HW_BUILD_DIR", str(HW / "build")))


def kat_dir() -> Path:
    """Folder of the PQCkemKAT_BIKE_L<n>.rsp files."""
    return Path(os.environ.get("BIKE_KAT_DIR", str(REPO.parent / "shared" / "kat")))


def rel(path: Path) -> str:
    """A path relative to hw/ (how sources appear in scripts and hashes)."""
    return os.path.relpath(path, HW)
