"""The verify record (schema ``bikeco-verify/2``): a design file's predictions beside what its
cores measured when built, simulated on KAT records and synthesised, and what the C driver saw
when libbike's KEM ran with the design's targets on its co-simulated bus devices, defined once
as typed dataclasses.

``bikeco verify`` (:mod:`bikeco.verify`) writes ``hw/results/designs/<name>/verify.json``
next to the design it verified (``design.json``) and its cores' synthesis reports;
``python -m hwflow check-records`` checks it against its sources; the report reads it.
docs/verify-json.md carries the field tables :func:`main` prints
(``python -m bikeco.verifyrecord``); a test keeps them equal. Standard library only.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bikeco.designfile import Prediction, _prediction
from bikeco.hwrecord import RecordError, Tools, Verification, _json_type, _Obj

SCHEMA = "bikeco-verify/2"
AREA_KEYS: tuple[str, ...] = ("lut", "ff", "dsp", "bram36")


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Area:
    """LUT, FF, DSP and BRAM of a whole design."""

    lut: float = field(metadata=_doc("LUTs"))
    ff: float = field(metadata=_doc("flip-flops"))
    dsp: float = field(metadata=_doc("DSP48E1 slices"))
    bram36: float = field(metadata=_doc("36 Kb block RAMs (halves: RAMB18)"))

    def get(self, key: str) -> float:
        return float(getattr(self, key))


@dataclass(frozen=True)
class CoreCheck:
    """One core of the design: predicted and measured."""

    core: str = field(metadata=_doc("the flow core"))
    params: dict[str, int] = field(metadata=_doc("its parameters, as the design file gives them"))
    predicted: Prediction = field(metadata=_doc("the design file's cycles and area of the core"))
    measured: Prediction = field(
        metadata=_doc("cycles per operation from the KAT simulation, area from Yosys")
    )
    lut_depth: int | None = field(metadata=_doc("LUT levels between registers (Yosys ltp)"))
    verified: Verification = field(
        metadata=_doc("vectors compared bit-exact with libbike (`random`, `kat`)")
    )
    error_pct: dict[str, float] = field(
        metadata=_doc(
            "(predicted - measured) / measured x 100: `cycles.<op>` per operation, and `lut`, "
            "`ff`, `bram36`"
        )
    )
    synth_report: str = field(metadata=_doc("the synthesis report beside this record"))
    synth_inputs_sha256: str = field(
        metadata=_doc("hash of the synthesis inputs (script, sources, Yosys pin)")
    )
    sim_sources_sha256: str = field(
        metadata=_doc("hash of the testbench's sources, parameters and Verilator pin")
    )


@dataclass(frozen=True)
class Attempt:
    """One build of the design: the first, then each refit."""

    params: dict[str, dict[str, int]] = field(metadata=_doc("core -> its parameters"))
    predicted_lut: float = field(metadata=_doc("the whole design's predicted LUTs"))
    measured_lut: float = field(metadata=_doc("its synthesised LUTs with the bus ports"))
    fits: bool = field(metadata=_doc("whether the measured area is within the limits"))


@dataclass(frozen=True)
class CosimTarget:
    """One target of the design on its bus device, as the driver saw it (per call)."""

    target: str = field(metadata=_doc("libbike's operation (`keygen`, `decaps.decoding`, ...)"))
    device: str = field(metadata=_doc("the bus device it ran on (`<core>_acc`)"))
    calls: int = field(metadata=_doc("device operations (KAT, random and tampered runs)"))
    accelerator_cycles: int = field(
        metadata=_doc("the shell's CYCLES per call: the core's cycles and its stream buffering")
    )
    transfer_cycles: int = field(
        metadata=_doc("PL cycles per call with an operand or result stream moving")
    )
    run_pl_cycles: int = field(
        metadata=_doc(
            "the driver's bike_acc_run per call, first register access to return: CYCLES, "
            "DMA set-up, register accesses, the interrupt (PL cycles)"
        )
    )
    predicted_pl_cycles: int = field(
        metadata=_doc(
            "the design's core cycles of the target plus the driver's transfer model with "
            "the run's timing: a KEM core's stream cycles, the register accesses, DMA set-up "
            "and interrupt of one call (bikeco.interconnect.run_cycles)"
        )
    )
    error_pct: float = field(metadata=_doc("(predicted_pl_cycles - run_pl_cycles) / run x 100"))


@dataclass(frozen=True)
class CosimCheck:
    """libbike's KEM with the design's targets on the co-simulated bus devices (bike-cosim)."""

    kat: int = field(metadata=_doc("KAT records run (keygen, encaps, decaps each)"))
    kat_matched: int = field(metadata=_doc("records whose pk, sk, ct and both ss were bit-exact"))
    random: int = field(metadata=_doc("KEMs from random coins, compared with libbike's software"))
    random_matched: int = field(metadata=_doc("random KEMs bit-exact"))
    tampered: int = field(metadata=_doc("tampered ciphertexts (one per random KEM)"))
    tampered_matched: int = field(
        metadata=_doc("tampered ciphertexts giving software's implicit-rejection secret")
    )
    passed: bool = field(metadata=_doc("every KAT record, random KEM and tampered ct matched"))
    timing: dict[str, int] = field(
        metadata=_doc("the driver's timing model (driver/README.md, `cosim`)")
    )
    targets: list[CosimTarget] = field(metadata=_doc("per target (`cosim.targets[]` below)"))
    sources_sha256: str = field(
        metadata=_doc("hash of the bus devices' sources and parameters, the driver's files run")
    )


@dataclass(frozen=True)
class VerifyRecord:
    """One verification (schema ``bikeco-verify/2``)."""

    design: str = field(metadata=_doc("the design's name"))
    design_file: str = field(metadata=_doc("the design verified, beside this record"))
    design_sha256: str = field(metadata=_doc("SHA-256 of that file"))
    device: str = field(metadata=_doc("the part"))
    level: int = field(metadata=_doc("BIKE level"))
    role: str = field(metadata=_doc("kem, client or server"))
    clock_mhz_assumed: float = field(metadata=_doc("the clock of the latencies (assumed)"))
    cores: list[CoreCheck] = field(metadata=_doc("per core (`cores[]` below)"))
    cycles: dict[str, dict[str, int]] = field(
        metadata=_doc(
            "per primitive in hardware: `predicted` and `measured` cycles (the cores' sums)"
        )
    )
    latency_ms: dict[str, dict[str, float]] = field(
        metadata=_doc(
            "per primitive and `total`: `predicted` (the design file's) and `measured` (the "
            "same with the measured hardware cycles at the assumed clock)"
        )
    )
    predicted: Area = field(metadata=_doc("the design's predicted area with the bus ports"))
    measured: Area = field(metadata=_doc("the synthesised cores plus the same bus ports"))
    limits: Area = field(
        metadata=_doc("cap x the device / (1 + routing margin): what `measured` must stay within")
    )
    fits: bool = field(metadata=_doc("measured within limits in every resource"))
    bit_exact: bool = field(
        metadata=_doc("every core's testbench and the co-simulation through the bus bit-exact")
    )
    cosim: CosimCheck = field(
        metadata=_doc("the KEM through the bus: libbike, the C driver, the devices (below)")
    )
    attempts: list[Attempt] = field(
        metadata=_doc("the builds, first to last (a refit after each that did not fit)")
    )
    tools: Tools = field(metadata=_doc("tool versions (`verilator`, `yosys` pins)"))
    seconds: float = field(metadata=_doc("wall time of the verification on the machine that ran"))

    def to_json(self) -> dict[str, Any]:
        """The JSON object, keys in the schema's order."""
        return {"schema": SCHEMA, **dataclasses.asdict(self)}

    @classmethod
    def from_json(cls, data: object, origin: str) -> VerifyRecord:
        """The record of a decoded JSON object; :class:`RecordError` naming ``origin`` and the
        field when it does not follow the schema."""
        return _record(_Obj(data, origin))


def _record(r: _Obj) -> VerifyRecord:
    schema = r.text("schema")
    if schema != SCHEMA:
        raise r.error("schema", f"must be '{SCHEMA}', got {schema!r}")
    cores = [_core(o) for o in _list(r, "cores")]
    rec = VerifyRecord(
        design=r.text("design"),
        design_file=r.text("design_file"),
        design_sha256=r.text("design_sha256"),
        device=r.text("device"),
        level=r.level("level"),
        role=r.text("role"),
        clock_mhz_assumed=r.number("clock_mhz_assumed", positive=True),
        cores=cores,
        cycles=_nested(r.sub("cycles"), int),
        latency_ms=_nested(r.sub("latency_ms"), float),
        predicted=_area(r.sub("predicted")),
        measured=_area(r.sub("measured")),
        limits=_area(r.sub("limits")),
        fits=_bool(r, "fits"),
        bit_exact=_bool(r, "bit_exact"),
        cosim=_cosim(r.sub("cosim")),
        attempts=[_attempt(o) for o in _list(r, "attempts")],
        tools=r.sub("tools").tools(),
        seconds=r.number("seconds"),
    )
    if not rec.attempts:
        raise r.error("attempts", "must hold at least the first build")
    r.finish()
    return rec


def _list(r: _Obj, key: str) -> list[_Obj]:
    v = r.need(key)
    if not isinstance(v, list):
        raise r.error(key, f"expected a list, got {v!r}")
    return [_Obj(x, r.origin, f"{r.path}{key}[{i}].") for i, x in enumerate(v)]


def _bool(r: _Obj, key: str) -> bool:
    v = r.need(key)
    if not isinstance(v, bool):
        raise r.error(key, f"expected true or false, got {v!r}")
    return v


def _area(r: _Obj) -> Area:
    a = Area(**{k: r.number(k) for k in AREA_KEYS})
    r.finish()
    return a


def _nested(r: _Obj, kind: type) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in r.data:
        sub = r.sub(key)
        if kind is int:
            out[key] = {k: sub.count(k) for k in sub.data}
        else:
            out[key] = {k: sub.number(k) for k in sub.data}
    return out


def _core(r: _Obj) -> CoreCheck:
    err = r.sub("error_pct")
    c = CoreCheck(
        core=r.text("core"),
        params=r.int_params("params"),
        predicted=_prediction(r.sub("predicted")),
        measured=_prediction(r.sub("measured")),
        lut_depth=r.count_or_null("lut_depth"),
        verified=r.sub("verified").verification(),
        error_pct={k: _signed(err, k) for k in err.data},
        synth_report=r.text("synth_report"),
        synth_inputs_sha256=r.text("synth_inputs_sha256"),
        sim_sources_sha256=r.text("sim_sources_sha256"),
    )
    r.finish()
    return c


def _cosim(r: _Obj) -> CosimCheck:
    c = CosimCheck(
        kat=r.count("kat"),
        kat_matched=r.count("kat_matched"),
        random=r.count("random"),
        random_matched=r.count("random_matched"),
        tampered=r.count("tampered"),
        tampered_matched=r.count("tampered_matched"),
        passed=_bool(r, "passed"),
        timing=r.int_params("timing"),
        targets=[_cosim_target(o) for o in _list(r, "targets")],
        sources_sha256=r.text("sources_sha256"),
    )
    if not c.targets:
        raise r.error("targets", "must hold the design's targets")
    r.finish()
    return c


def _cosim_target(r: _Obj) -> CosimTarget:
    t = CosimTarget(
        target=r.text("target"),
        device=r.text("device"),
        calls=r.count("calls"),
        accelerator_cycles=r.count("accelerator_cycles"),
        transfer_cycles=r.count("transfer_cycles"),
        run_pl_cycles=r.count("run_pl_cycles"),
        predicted_pl_cycles=r.count("predicted_pl_cycles"),
        error_pct=_signed(r, "error_pct"),
    )
    r.finish()
    return t


def _signed(r: _Obj, key: str) -> float:
    v = r.need(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise r.error(key, f"expected a number, got {v!r}")
    return float(v)


def _attempt(r: _Obj) -> Attempt:
    ps = r.sub("params")
    a = Attempt(
        params={core: ps.int_params(core) for core in ps.data},
        predicted_lut=r.number("predicted_lut"),
        measured_lut=r.number("measured_lut"),
        fits=_bool(r, "fits"),
    )
    r.finish()
    return a


def load_verify(path: Path) -> VerifyRecord:
    """The verify record in ``path``; :class:`RecordError` naming the file and field."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: cannot read a verify record ({exc})") from None
    return VerifyRecord.from_json(data, str(path))


def load_builds(path: Path) -> tuple[str, list[Attempt]]:
    """The design hash and the builds of the record in ``path``, of this schema or the one
    before it (``bikeco-verify/1``, without the co-simulation): what ``bikeco verify
    --keep-attempts`` continues."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: cannot read a verify record ({exc})") from None
    r = _Obj(data, str(path))
    if r.text("schema") not in (SCHEMA, "bikeco-verify/1"):
        raise r.error("schema", f"must be '{SCHEMA}' or 'bikeco-verify/1'")
    return r.text("design_sha256"), [_attempt(o) for o in _list(r, "attempts")]


def load_all(hw_results: Path) -> list[VerifyRecord]:
    """Every committed verify record under ``hw_results/designs/*/verify.json``, by design
    name (what the report shows; it never runs the flow)."""
    return [load_verify(p) for p in sorted((hw_results / "designs").glob("*/verify.json"))]


def dump_verify(rec: VerifyRecord, path: Path) -> None:
    """Write a record once it loads back."""
    data = rec.to_json()
    VerifyRecord.from_json(data, str(path))
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


# ---- field tables (docs/verify-json.md) -------------------------------------------------------


def field_table(cls: type[Any]) -> str:
    hints = typing.get_type_hints(cls)
    rows = ["| field | type | meaning |", "|---|---|---|"]
    if cls is VerifyRecord:
        rows.append(f"| `schema` | string | `{SCHEMA}` |")
    for f in dataclasses.fields(cls):
        rows.append(f"| `{f.name}` | {_type(hints[f.name])} | {f.metadata['doc']} |")
    return "\n".join(rows)


def _type(tp: object) -> str:
    if typing.get_origin(tp) is list:
        return "list of " + ("objects" if dataclasses.is_dataclass(typing.get_args(tp)[0]) else "?")
    if tp is bool:
        return "boolean"
    args = typing.get_args(tp)
    if typing.get_origin(tp) is dict and typing.get_origin(args[1]) is dict:
        return f"object of objects of {_json_type(typing.get_args(args[1])[1])} values"
    return _json_type(tp)


TABLES: dict[str, type[Any]] = {
    "verify": VerifyRecord,
    "core": CoreCheck,
    "area": Area,
    "attempt": Attempt,
    "cosim": CosimCheck,
    "cosim_target": CosimTarget,
}


def main() -> None:
    """Print every field table under the marker the docs place it at."""
    for name, cls in TABLES.items():
        sys.stdout.write(f"<!-- fields: {name} -->\n{field_table(cls)}\n\n")


if __name__ == "__main__":
    main()
