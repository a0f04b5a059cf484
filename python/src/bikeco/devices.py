"""Layer 1, devices: FPGA resource budgets and the CPU beside them.

Built-in parts are the Zynq-7000 and Artix-7 rows of ``data/devices.csv`` (a copy of the
shared seed table). A user file (CSV with the same columns, or JSON: a list of objects with
the same keys) adds parts or overrides built-in ones by name.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from bikeco.data_files import read_table
from bikeco.errors import BikecoError
from bikeco.userfiles import read_json, read_text

RESOURCES: tuple[str, ...] = ("lut", "ff", "dsp", "bram36")
"""The resource kinds every budget and every hardware cost gives, in this order."""


@dataclass(frozen=True)
class Device:
    """One FPGA part: its budget per resource kind and the CPU beside it (may be empty)."""

    name: str
    family: str
    lut: int
    ff: int
    dsp: int
    bram36: float
    cpu: str = ""
    source: str = ""

    def budget(self) -> dict[str, float]:
        """The resource budget as a mapping from resource kind to amount."""
        return {"lut": self.lut, "ff": self.ff, "dsp": self.dsp, "bram36": self.bram36}

    @property
    def label(self) -> str:
        """Short human name, e.g. ``Z-7010`` or ``A7-35T``."""
        m = re.fullmatch(r"xc7z(\d+)", self.name)
        if m:
            return f"Z-{7000 + int(m.group(1))}"
        m = re.fullmatch(r"xc7a(\d+t)", self.name)
        if m:
            return f"A7-{m.group(1).upper()}"
        return self.name


def _number(row: Mapping[str, object], key: str, where: str, integer: bool) -> float:
    value = row.get(key)
    try:
        num = float(str(value).strip())
    except (TypeError, ValueError):
        raise BikecoError(f"{where}: field '{key}' must be a number, got {value!r}") from None
    if num < 0 or not math.isfinite(num):
        raise BikecoError(
            f"{where}: field '{key}' must be a finite non-negative number, got {value!r}"
        )
    if integer and not num.is_integer():
        raise BikecoError(f"{where}: field '{key}' must be a whole number, got {value!r}")
    return num


def device_from_row(row: Mapping[str, object], where: str) -> Device:
    """Build a :class:`Device` from one table row, checking every field."""
    name = str(row.get("device") or "").strip().lower()
    if not name:
        raise BikecoError(f"{where}: missing field 'device'")
    return Device(
        name=name,
        family=str(row.get("family") or "").strip(),
        lut=int(_number(row, "lut", where, True)),
        ff=int(_number(row, "ff", where, True)),
        dsp=int(_number(row, "dsp", where, True)),
        bram36=_number(row, "bram36", where, False),
        cpu=str(row.get("cpu") or "").strip(),
        source=str(row.get("source") or "").strip(),
    )


def builtin_devices() -> list[Device]:
    """The packaged Zynq-7000 and Artix-7 parts."""
    return [
        device_from_row(r, f"devices.csv line {i + 2}")
        for i, r in enumerate(read_table("devices.csv"))
    ]


def load_user_devices(path: Path) -> list[Device]:
    """Read a user device file (``.csv`` or ``.json``)."""
    rows: Iterable[Mapping[str, object]]
    if path.suffix.lower() == ".json":
        data = read_json(path, "device file")
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise BikecoError(f"{path}: expected a JSON list of device objects")
        rows = data
    else:
        try:
            rows = list(csv.DictReader(read_text(path, "device file").splitlines()))
        except csv.Error as exc:
            raise BikecoError(f"{path}: not a valid CSV table ({exc})") from None
    out = [device_from_row(r, f"{path} entry {i + 1}") for i, r in enumerate(rows)]
    if not out:
        raise BikecoError(f"{path}: no devices in file")
    return out


class DeviceCatalog:
    """Built-in devices plus any from user files, looked up by name or alias."""

    def __init__(self, extra_files: Iterable[Path] = ()) -> None:
        self._devices: dict[str, Device] = {d.name: d for d in builtin_devices()}
        for path in extra_files:
            for dev in load_user_devices(path):
                self._devices[dev.name] = dev

    def all(self) -> list[Device]:
        """Every device, in catalogue order (built-ins first)."""
        return list(self._devices.values())

    def family(self, family: str) -> list[Device]:
        """The devices of one family (``zynq7000`` or ``artix7``)."""
        return [d for d in self._devices.values() if d.family == family]

    def get(self, name: str) -> Device:
        """Find a device by name (``xc7z010``) or alias (``z7010``, ``Z-7010``, ``7a35t``)."""
        key = re.sub(r"[\s_-]", "", name.strip().lower())
        candidates = [key, "xc" + key, "xc7" + key]
        m = re.fullmatch(r"z(\d{4})", key)
        if m:
            candidates.append(f"xc7z{int(m.group(1)) - 7000:03d}")
        m = re.fullmatch(r"a7(\d+t)", key)
        if m:
            candidates.append(f"xc7a{m.group(1)}")
        for cand in candidates:
            if cand in self._devices:
                return self._devices[cand]
        known = ", ".join(d.name for d in self._devices.values())
        raise BikecoError(f"unknown device '{name}' (known devices: {known})")
