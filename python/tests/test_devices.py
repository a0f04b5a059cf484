from __future__ import annotations

import json
from pathlib import Path

import pytest

from bikeco.devices import DeviceCatalog, builtin_devices
from bikeco.errors import BikecoError


def test_builtin_parts_and_budgets() -> None:
    devs = {d.name: d for d in builtin_devices()}
    assert len(devs) == 11
    z10 = devs["xc7z010"]
    assert z10.budget() == {"lut": 17600, "ff": 35200, "dsp": 80, "bram36": 60}
    assert "Cortex-A9" in z10.cpu
    assert devs["xc7a200t"].lut == 134600
    assert {d.family for d in devs.values()} == {"zynq7000", "artix7"}


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("z7010", "xc7z010"),
        ("Z-7015", "xc7z015"),
        ("xc7z020", "xc7z020"),
        ("7a35t", "xc7a35t"),
        ("A7-100T", "xc7a100t"),
        ("a35t", "xc7a35t"),
    ],
)
def test_aliases(alias: str, name: str) -> None:
    assert DeviceCatalog().get(alias).name == name


def test_labels() -> None:
    cat = DeviceCatalog()
    assert cat.get("xc7z010").label == "Z-7010"
    assert cat.get("xc7a35t").label == "A7-35T"


def test_unknown_device_lists_known() -> None:
    with pytest.raises(BikecoError, match=r"unknown device 'xc7k325t'.*xc7z010"):
        DeviceCatalog().get("xc7k325t")


def test_user_csv_adds_and_overrides(tmp_path: Path) -> None:
    f = tmp_path / "dev.csv"
    f.write_text(
        "device,family,lut,ff,dsp,bram36,cpu,source\n"
        "xc7z010,zynq7000,1000,2000,10,5,A9,mine\n"
        "myfpga,custom,50000,100000,100,100.5,,mine\n",
        encoding="utf-8",
    )
    cat = DeviceCatalog([f])
    assert cat.get("z7010").lut == 1000
    assert cat.get("myfpga").bram36 == 100.5
    assert len(cat.all()) == 12


def test_user_json(tmp_path: Path) -> None:
    f = tmp_path / "dev.json"
    f.write_text(json.dumps([{"device": "big", "lut": 9, "ff": 9, "dsp": 1, "bram36": 1}]))
    assert DeviceCatalog([f]).get("big").lut == 9


@pytest.mark.parametrize(
    "content",
    [
        "device,family,lut,ff,dsp,bram36\nbad,x,many,1,1,1\n",
        "device,family,lut,ff,dsp,bram36\nbad,x,-5,1,1,1\n",
        "device,family,lut,ff,dsp,bram36\nbad,x,1.5,1,1,1\n",
        "device,family,lut,ff,dsp,bram36\n,x,1,1,1,1\n",
        "device,family,lut,ff,dsp,bram36\n",
        "device,family,lut,ff,dsp,bram36\nbad,x,1,1,1,inf\n",
        "device,family,lut,ff,dsp,bram36\nbad,x,1,1,1,1e999\n",
    ],
)
def test_malformed_user_file(tmp_path: Path, content: str) -> None:
    f = tmp_path / "dev.csv"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(BikecoError):
        DeviceCatalog([f])


def test_missing_user_file(tmp_path: Path) -> None:
    with pytest.raises(BikecoError, match="not found"):
        DeviceCatalog([tmp_path / "nope.csv"])
