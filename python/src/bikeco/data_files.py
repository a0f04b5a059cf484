"""Access to the CSV tables shipped inside the package (copies of the seed tables)."""

from __future__ import annotations

import csv
import io
from importlib import resources


def read_table(name: str) -> list[dict[str, str]]:
    """Return the rows of the packaged CSV file ``name`` as dictionaries of strings."""
    text = resources.files("bikeco").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))
