"""The design file (schema ``bikeco-design/1``): what ``bikeco design`` chose for one device,
level and role, and what it predicts, defined once as typed dataclasses.

``bikeco design`` writes it; the hardware flow reads it (``python -m hwflow design-params``,
``--design`` of its lint, test and synth commands) and ``bikeco verify`` builds, simulates and
synthesises what it names. docs/design-json.md carries the field tables :func:`main` prints
(``python -m bikeco.designfile``); a test keeps them equal. Standard library only.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bikeco.errors import BikecoError
from bikeco.hwrecord import RecordError, _json_type, _Obj
from bikeco.userfiles import read_json

SCHEMA = "bikeco-design/1"
RESOURCE_KEYS: tuple[str, ...] = ("lut", "ff", "dsp", "bram36")
PRIMITIVE_KEYS: tuple[str, ...] = ("keygen", "encaps", "decaps")


class DesignError(BikecoError):
    """A design file does not follow the schema."""


def _doc(text: str) -> dict[str, str]:
    return {"doc": text}


@dataclass(frozen=True)
class Constraints:
    """The budget the design was chosen within."""

    device_lut: int = field(metadata=_doc("the device's LUTs"))
    device_ff: int = field(metadata=_doc("the device's flip-flops"))
    device_dsp: int = field(metadata=_doc("the device's DSP48E1 slices"))
    device_bram36: float = field(metadata=_doc("the device's 36 Kb block RAMs"))
    cap: float = field(metadata=_doc("fraction of each resource the design may use, (0, 1]"))
    routing_margin: float = field(
        metadata=_doc("fraction added to every predicted area before it is compared, >= 0")
    )
    bus_lut: int = field(metadata=_doc("LUTs counted per accelerator for its bus port"))
    bus_ff: int = field(metadata=_doc("flip-flops counted per accelerator for its bus port"))


@dataclass(frozen=True)
class Prediction:
    """The cost model's figures for one core or for the whole design."""

    cycles: dict[str, int] = field(
        metadata=_doc(
            "cycles per operation, named as the core's testbench reports them (keygen, "
            "encaps, decaps for a KEM core; op for a unit behind the bus shell); for the whole "
            "design the hardware cycles per primitive"
        )
    )
    lut: int = field(metadata=_doc("LUTs (with the bus port for a whole design)"))
    ff: int = field(metadata=_doc("flip-flops"))
    dsp: int = field(metadata=_doc("DSP48E1 slices"))
    bram36: float = field(metadata=_doc("36 Kb block RAMs (halves: RAMB18)"))


@dataclass(frozen=True)
class DesignCore:
    """One accelerator the design places: a flow core of hw/ with its parameters."""

    core: str = field(
        metadata=_doc(
            "the flow core (`python -m hwflow list`): bike_kem_full, bike_kem_client, "
            "bike_kem_server, bike_kem_keygen, bike_kem_decaps, gf2x_inv_acc, gf2x_mul_acc or "
            "bike_decoder_acc"
        )
    )
    params: dict[str, int] = field(
        metadata=_doc(
            "every RTL parameter of the core but the level ones (R, D, T: from `level`) and "
            "the shape bits the flow core fixes"
        )
    )
    serves: list[str] = field(
        metadata=_doc("the targets it runs: primitives, or `primitive.operation` items")
    )
    predicted: Prediction = field(metadata=_doc("the model's cycles and area of this core alone"))


@dataclass(frozen=True)
class Latency:
    """Predicted milliseconds per primitive: software, accelerator and transfers."""

    keygen: float = field(metadata=_doc("KeyGen, ms (0 when the role has no KeyGen)"))
    encaps: float = field(metadata=_doc("Encaps, ms (0 when the role has no Encaps)"))
    decaps: float = field(metadata=_doc("Decaps, ms (0 when the role has no Decaps)"))
    total: float = field(metadata=_doc("the role's primitives together, ms"))


@dataclass(frozen=True)
class Design:
    """One design (schema ``bikeco-design/1``)."""

    name: str = field(metadata=_doc("`<device>_L<level>_<role>`, used for build folders"))
    device: str = field(metadata=_doc("the part, e.g. xc7z020"))
    level: int = field(metadata=_doc("BIKE level: 1, 3 or 5"))
    role: str = field(metadata=_doc("kem (all three primitives), client or server"))
    clock_mhz: float = field(metadata=_doc("the accelerator clock assumed (no place and route)"))
    profile: str = field(metadata=_doc("the software profile of what stays on the CPU"))
    constraints: Constraints = field(metadata=_doc("the budget (`constraints` below)"))
    cores: list[DesignCore] = field(
        metadata=_doc("the accelerators placed (`cores[]` below); empty: software only")
    )
    placement: dict[str, str] = field(
        metadata=_doc("each primitive or `primitive.operation` -> `sw` or the core running it")
    )
    predicted: Prediction = field(
        metadata=_doc("the whole design: hardware cycles per primitive, area with bus ports")
    )
    latency_ms: Latency = field(metadata=_doc("predicted latency (`latency_ms` below)"))
    fits: bool = field(metadata=_doc("whether the predicted area is within the budget"))
    notes: list[str] = field(metadata=_doc("what the model assumed or extrapolated"))

    def to_json(self) -> dict[str, Any]:
        """The JSON object, keys in the schema's order."""
        return {"schema": SCHEMA, **dataclasses.asdict(self)}

    @classmethod
    def from_json(cls, data: object, origin: str) -> Design:
        """The design of a decoded JSON object; :class:`DesignError` naming ``origin`` and the
        field when it does not follow the schema."""
        try:
            return _design(_Obj(data, origin))
        except RecordError as exc:
            raise DesignError(str(exc)) from None


def _design(r: _Obj) -> Design:
    schema = r.text("schema")
    if schema != SCHEMA:
        raise r.error("schema", f"must be '{SCHEMA}', got {schema!r}")
    role = r.text("role")
    if role not in ("kem", "client", "server"):
        raise r.error("role", f"must be kem, client or server, got {role!r}")
    cores_raw = r.need("cores")
    if not isinstance(cores_raw, list):
        raise r.error("cores", f"expected a list, got {cores_raw!r}")
    cores = [_core(_Obj(c, r.origin, f"cores[{i}].")) for i, c in enumerate(cores_raw)]
    placement = r.sub("placement")
    names = {c.core for c in cores}
    place: dict[str, str] = {}
    for item in placement.data:
        where = placement.text(item)
        if where != "sw" and where not in names:
            raise placement.error(item, f"'{where}' is neither sw nor a core of the design")
        place[item] = where
    d = Design(
        name=r.text("name"),
        device=r.text("device"),
        level=r.level("level"),
        role=role,
        clock_mhz=r.number("clock_mhz", positive=True),
        profile=r.text("profile"),
        constraints=_constraints(r.sub("constraints")),
        cores=cores,
        placement=place,
        predicted=_prediction(r.sub("predicted")),
        latency_ms=_latency(r.sub("latency_ms")),
        fits=_bool(r, "fits"),
        notes=_texts(r, "notes"),
    )
    r.finish()
    return d


def _bool(r: _Obj, key: str) -> bool:
    v = r.need(key)
    if not isinstance(v, bool):
        raise r.error(key, f"expected true or false, got {v!r}")
    return v


def _texts(r: _Obj, key: str) -> list[str]:
    v = r.need(key)
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise r.error(key, f"expected a list of strings, got {v!r}")
    return list(v)


def _constraints(r: _Obj) -> Constraints:
    c = Constraints(
        device_lut=r.count("device_lut"),
        device_ff=r.count("device_ff"),
        device_dsp=r.count("device_dsp"),
        device_bram36=r.number("device_bram36"),
        cap=r.number("cap", positive=True),
        routing_margin=r.number("routing_margin"),
        bus_lut=r.count("bus_lut"),
        bus_ff=r.count("bus_ff"),
    )
    if c.cap > 1:
        raise r.error("cap", f"must be at most 1, got {c.cap}")
    r.finish()
    return c


def _prediction(r: _Obj) -> Prediction:
    p = Prediction(
        cycles=r.int_params("cycles"),
        lut=r.count("lut"),
        ff=r.count("ff"),
        dsp=r.count("dsp"),
        bram36=r.number("bram36"),
    )
    r.finish()
    return p


def _latency(r: _Obj) -> Latency:
    lat = Latency(
        keygen=r.number("keygen"),
        encaps=r.number("encaps"),
        decaps=r.number("decaps"),
        total=r.number("total"),
    )
    r.finish()
    return lat


def _core(r: _Obj) -> DesignCore:
    c = DesignCore(
        core=r.text("core"),
        params=r.int_params("params"),
        serves=_texts(r, "serves"),
        predicted=_prediction(r.sub("predicted")),
    )
    r.finish()
    return c


def load_design(path: Path) -> Design:
    """The design in ``path``; :class:`DesignError` naming the file and field otherwise."""
    return Design.from_json(read_json(path, "a design file", DesignError), str(path))


def dump_design(design: Design, path: Path) -> None:
    """Write a design file once it loads back (the writer cannot write what readers reject)."""
    data = design.to_json()
    Design.from_json(data, str(path))
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


# ---- field tables (docs/design-json.md) -------------------------------------------------------


def _type_name(tp: object) -> str:
    if typing.get_origin(tp) is list:
        (arg,) = typing.get_args(tp)
        return f"list of {_type_name(arg)}s"
    return str(_json_type(tp))


def field_table(cls: type[Any]) -> str:
    """The Markdown table of a schema class's fields: name, JSON type, meaning."""
    hints = typing.get_type_hints(cls)
    rows = ["| field | type | meaning |", "|---|---|---|"]
    if cls is Design:
        rows.append(f"| `schema` | string | `{SCHEMA}` |")
    for f in dataclasses.fields(cls):
        rows.append(f"| `{f.name}` | {_type_name(hints[f.name])} | {f.metadata['doc']} |")
    return "\n".join(rows)


TABLES: dict[str, type[Any]] = {
    "design": Design,
    "constraints": Constraints,
    "core": DesignCore,
    "prediction": Prediction,
    "latency": Latency,
}
"""The field tables of docs/design-json.md, by the name of their marker."""


def main() -> None:
    """Print every field table, each under the marker the doc places it at."""
    for name, cls in TABLES.items():
        sys.stdout.write(f"<!-- fields: {name} -->\n{field_table(cls)}\n\n")


if __name__ == "__main__":
    main()
