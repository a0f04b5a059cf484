"""The hardware records' one schema: every committed file follows it, the docs list its fields."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from bikeco.hwrecord import (
    TABLES,
    HwRecord,
    PnrFigures,
    PnrReport,
    RecordError,
    SynthReport,
    ValidationRecord,
    Verification,
    dump,
    field_table,
    load_pnr_report,
    load_record,
    load_report,
    load_validation,
)

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "hw-results-json.md"
RECORDS = sorted(REPO.glob("hw/results/*.json"))
REPORTS = sorted(REPO.glob("hw/ip/*/syn/reports/*.json"))
PNR_REPORTS = sorted(REPO.glob("hw/ip/*/syn/pnr/*.json"))
VALIDATIONS = sorted(REPO.glob("hw/results/validation/*.json"))


def test_committed_files_exist() -> None:
    assert len(RECORDS) > 10 and len(REPORTS) > 10 and PNR_REPORTS


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_committed_record_follows_schema(path: Path) -> None:
    rec = load_record(path)
    # the writer's output, byte for byte: nothing the schema does not know is dropped
    assert json.dumps(rec.to_json(), indent=2) + "\n" == path.read_text()
    assert path.name == f"{rec.core}_{rec.preset}_L{rec.level}.json"
    assert rec.verified.passed


@pytest.mark.parametrize("path", VALIDATIONS, ids=lambda p: p.name)
def test_committed_validation_record_follows_schema(path: Path) -> None:
    rec = load_validation(path)
    assert json.dumps(rec.to_json(), indent=2) + "\n" == path.read_text()
    assert path.name == f"{rec.core}_{rec.preset}_L{rec.level}.json"
    assert rec.failures == 0


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: f"{p.parts[-4]}/{p.name}")
def test_committed_report_follows_schema(path: Path) -> None:
    rep = load_report(path)
    assert json.dumps(rep.to_json(), indent=2) + "\n" == path.read_text()
    assert path.stem.endswith(rep.name)


@pytest.mark.parametrize("path", PNR_REPORTS, ids=lambda p: f"{p.parts[-4]}/{p.name}")
def test_committed_pnr_report_follows_schema(path: Path) -> None:
    rep = load_pnr_report(path)
    assert json.dumps(rep.to_json(), indent=2) + "\n" == path.read_text()
    assert path.stem.endswith(rep.name)


PNR = PnrFigures(
    part="LFE5U-85F",
    target_mhz=100.0,
    fmax_mhz=87.5,
    lut4=4321,
    ff=1234,
    ebr=3,
    mult18=0,
    seconds=12.5,
)


def test_pnr_figures_round_trip(tmp_path: Path) -> None:
    """A record's `pnr` object loads back equal; a record without one has no key."""
    rec = load_record(RECORDS[0])
    bare = dataclasses.replace(rec, pnr=None)
    assert "pnr" not in bare.to_json()
    assert HwRecord.from_json(bare.to_json(), "r.json") == bare
    routed = dataclasses.replace(rec, pnr=PNR)
    out = tmp_path / "r.json"
    dump(routed, out)
    assert json.loads(out.read_text())["pnr"]["fmax_mhz"] == 87.5
    assert load_record(out) == routed
    data = routed.to_json()
    data["pnr"]["lut4"] = -1
    with pytest.raises(RecordError, match=r"^r\.json: pnr\.lut4: expected a non-negative"):
        HwRecord.from_json(data, "r.json")
    data["pnr"] = dict(dataclasses.asdict(PNR), slices=5)
    with pytest.raises(RecordError, match=r"r\.json: pnr\.slices: not a field of the schema"):
        HwRecord.from_json(data, "r.json")
    data["pnr"] = dict(dataclasses.asdict(PNR), fmax_mhz=0)
    with pytest.raises(RecordError, match=r"r\.json: pnr\.fmax_mhz: expected a positive"):
        HwRecord.from_json(data, "r.json")


def test_verification_counts() -> None:
    assert not Verification(random=0, kat=0).passed
    assert Verification(random=0, kat=3).passed
    assert Verification(random=5, kat=3).total == 8


def test_errors_name_file_and_field(tmp_path: Path) -> None:
    rec = json.loads(RECORDS[0].read_text())
    rec["verified"]["random"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(rec))
    with pytest.raises(RecordError, match=rf"^{re.escape(str(bad))}: verified.random: expected"):
        load_record(bad)
    rep = json.loads(REPORTS[0].read_text())
    rep["lut"] += 1
    with pytest.raises(RecordError, match=r"r\.json: lut: \d+ is not lut_logic \+ lut_ram"):
        SynthReport.from_json(rep, "r.json")
    bad.write_text("{")
    with pytest.raises(RecordError, match="cannot read a JSON record"):
        load_report(bad)


def _doc_tables() -> dict[str, str]:
    """The field tables of the docs, by marker: `<!-- fields: NAME -->` then a table."""
    text = DOC.read_text()
    return {
        m.group(1): m.group(2).strip()
        for m in re.finditer(r"<!-- fields: (\w+) -->\n((?:\|.*\n)+)", text)
    }


def test_docs_list_the_schema_fields() -> None:
    tables = _doc_tables()
    assert sorted(tables) == sorted(TABLES), "docs/hw-results-json.md: field table markers"
    for name, cls in TABLES.items():
        assert tables[name] == field_table(cls), (
            f"docs/hw-results-json.md: the '{name}' table differs from bikeco.hwrecord "
            "(print the tables with: python -m bikeco.hwrecord)"
        )


def test_docs_examples_follow_schema() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.DOTALL)
    assert len(blocks) == 4
    assert HwRecord.from_json(json.loads(blocks[0]), "docs example (record)").pnr is not None
    SynthReport.from_json(json.loads(blocks[1]), "docs example (report)")
    PnrReport.from_json(json.loads(blocks[2]), "docs example (P&R report)")
    ValidationRecord.from_json(json.loads(blocks[3]), "docs example (validation record)")


def test_dump_writes_the_committed_bytes(tmp_path: Path) -> None:
    for src in (RECORDS[0], REPORTS[0]):
        out = tmp_path / src.name
        dump(load_record(src) if src in RECORDS else load_report(src), out)
        assert out.read_bytes() == src.read_bytes()


def test_dump_refuses_what_readers_reject(tmp_path: Path) -> None:
    rec = load_record(RECORDS[0])
    bad = dataclasses.replace(rec, verified=Verification(random=-1, kat=0))
    out = tmp_path / "bad.json"
    with pytest.raises(RecordError, match=r"bad\.json: verified\.random"):
        dump(bad, out)
    assert not out.exists()
