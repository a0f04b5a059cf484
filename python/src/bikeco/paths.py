"""Where the repository, a ``bike`` tool to measure and the hardware results records are."""

from __future__ import annotations

import os
from pathlib import Path


def _looks_like_root(path: Path) -> bool:
    return (path / "python" / "pyproject.toml").is_file() or (
        (path / "docs" / "hw-results-json.md").is_file()
    )


def repo_root() -> Path:
    """The bikeco repository: ``$BIKECO_ROOT``, else the nearest parent of the current
    directory that looks like it, else the checkout this package was installed from, else the
    current directory."""
    env = os.environ.get("BIKECO_ROOT")
    if env:
        return Path(env)
    cwd = Path.cwd().resolve()
    for cand in (cwd, *cwd.parents):
        if _looks_like_root(cand):
            return cand
    here = Path(__file__).resolve()
    if len(here.parents) > 3 and _looks_like_root(here.parents[3]):
        return here.parents[3]
    return cwd


def given_bike_bin() -> Path | None:
    """``$BIKE_BIN``: a ``bike`` binary to measure instead of the library the binding loads."""
    env = os.environ.get("BIKE_BIN")
    return Path(env) if env else None


def default_hw_results() -> Path:
    """``$BIKECO_HW_RESULTS`` or the repository's ``hw/results``."""
    env = os.environ.get("BIKECO_HW_RESULTS")
    if env:
        return Path(env)
    return repo_root() / "hw" / "results"
