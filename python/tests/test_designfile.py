"""The design file's one schema: the docs list its fields, its example loads, bad files fail."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from bikeco.designfile import (
    TABLES,
    Design,
    DesignError,
    dump_design,
    field_table,
    load_design,
)

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "design-json.md"


def _example() -> dict[str, object]:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert len(blocks) == 1
    data: dict[str, object] = json.loads(blocks[0])
    return data


def test_docs_list_the_schema_fields() -> None:
    text = DOC.read_text()
    tables = {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r"<!-- fields: (\w+) -->\n((?:\|.*\n)+)", text)
    }
    assert sorted(tables) == sorted(TABLES)
    for name, cls in TABLES.items():
        assert tables[name] == field_table(cls), (
            f"docs/design-json.md: the '{name}' table differs from bikeco.designfile "
            "(print the tables with: python -m bikeco.designfile)"
        )


def test_example_round_trips(tmp_path: Path) -> None:
    d = Design.from_json(_example(), "docs example")
    assert d.cores[0].core == "bike_kem_full" and d.fits
    out = tmp_path / "d.json"
    dump_design(d, out)
    assert load_design(out) == d


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(schema="bikeco-design/0"), r"schema: must be 'bikeco-design/1'"),
        (lambda d: d.update(level=2), r"level: must be one of"),
        (lambda d: d.update(role="both"), r"role: must be kem, client or server"),
        (lambda d: d.update(extra=1), r"extra: not a field of the schema"),
        (lambda d: d["placement"].update(keygen="gf2x_inv_acc"), r"placement\.keygen: "),
        (lambda d: d["cores"][0]["params"].update(InvE=-1), r"cores\[0\]\.params\.InvE"),
        (lambda d: d["constraints"].update(cap=1.5), r"constraints\.cap: must be at most 1"),
        (lambda d: d.pop("fits"), r"fits: missing"),
    ],
)
def test_bad_files_name_the_field(change: object, message: str, tmp_path: Path) -> None:
    data = _example()
    assert callable(change)
    change(data)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(DesignError, match=rf"^{re.escape(str(bad))}: {message}"):
        load_design(bad)


def test_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(DesignError, match="cannot read a design file"):
        load_design(bad)


def test_dump_refuses_what_readers_reject(tmp_path: Path) -> None:
    d = Design.from_json(_example(), "docs example")
    bad = dataclasses.replace(d, role="nobody")
    out = tmp_path / "bad.json"
    with pytest.raises(DesignError, match="role"):
        dump_design(bad, out)
    assert not out.exists()
