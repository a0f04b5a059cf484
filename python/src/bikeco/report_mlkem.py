"""The report's ML-KEM placement: ``bikeco plan --kem`` (:mod:`bikeco.mlkem`) for each
Zynq-7000 part of seed 000 at each ML-KEM parameter set, on our NTT and Keccak records, bare
metal bus, every KEM operation's latency minimised.

:func:`mlkem_section` computes it from the report's inputs; the report only lays it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bikeco.devices import DeviceCatalog
from bikeco.errors import NothingFitsError
from bikeco.hwrecord import SynthReport
from bikeco.interconnect import TransferModel
from bikeco.mlkem import (
    KEM_OPS,
    MLKEM,
    MlkemPlan,
    Problem,
    device_ops,
    plan,
    presets_of_records,
    seed004_a53,
)

DEVICES: tuple[str, ...] = ("xc7z010", "xc7z015", "xc7z020")

Row = list[str | int | float]


@dataclass(frozen=True)
class MlkemSection:
    """One table (a row per part and parameter set) and the sentences that go with it."""

    header: list[str]
    rows: list[Row]
    notes: tuple[str, ...]


def _on(p: MlkemPlan, core: str) -> str:
    """``<preset>: <device op> (<works>), ...`` of what runs on ``core``."""
    on = [c for c in p.choices if c.runs_on.startswith(core + ":")]
    if not on:
        return "-"
    ops = ", ".join(
        c.device_op if c.works == (c.device_op,) else f"{c.device_op} ({'+'.join(c.works)})"
        for c in on
    )
    return f"{on[0].runs_on.split(':')[1]}: {ops}"


def _row(p: MlkemPlan) -> Row:
    used = p.used()
    times = [
        f"{p.latency_ms(op) * 1e3:.0f} ({p.sw_only_ms(op) / p.latency_ms(op):.2f}x)"
        for op in KEM_OPS
    ]
    d = p.problem.device
    return [
        d.label,
        p.problem.params.name,
        _on(p, "ntt_acc"),
        _on(p, "keccak_sampler_acc"),
        f"{used['lut']:g}",
        f"{used['dsp']:g}",
        f"{used['bram36']:g}",
        *times,
    ]


def mlkem_section(
    records: tuple[tuple[str, dict[str, Any]], ...],
    catalog: DeviceCatalog,
    transfer: TransferModel,
    devices: Sequence[tuple[str, SynthReport]] = (),
) -> MlkemSection:
    """The section from the report's hardware records (NTT and sampler records are used) and
    ntt_acc's synthesis reports (:func:`bikeco.mlkem.device_reports`)."""
    header = ["part", "set", "on ntt_acc", "on keccak_sampler_acc", "LUT", "DSP", "BRAM36"]
    header += [f"{op} us (speed-up)" for op in KEM_OPS]
    presets = tuple(presets_of_records(records, None, devices))
    software = seed004_a53()
    if not presets:
        return MlkemSection(header, [], ("No NTT or sampler records: nothing to place.",))
    rows: list[Row] = []
    notes: list[str] = []
    for name in DEVICES:
        dev = catalog.get(name)
        for ps in MLKEM.values():
            pb = Problem(dev, ps, software, presets, tuple(device_ops()), transfer)
            try:
                p = plan(pb)
            except NothingFitsError as exc:
                notes.append(f"{dev.label} {ps.name}: {exc}")
                continue
            rows.append(_row(p))
            notes.extend(n for n in p.notes if n not in notes)
    same = [ps for ps in MLKEM if len({tuple(r[2:]) for r in rows if r[1] == ps}) == 1]
    if same:
        notes.append(
            f"{', '.join(same)}: the same plan on every part shown (the smallest part holds "
            "the fastest cores)."
        )
    us = software
    notes.insert(
        0,
        f"Software: {us.how}. Per call: NTT {us.ntt_us:.1f} us, inverse NTT "
        f"{us.invntt_us:.1f} us, base multiplication {us.basemul_us:.1f} us per pair, "
        f"{us.perm_us:.2f} us per Keccak-f permutation (sampling and hashing), "
        f"{us.rest_us:.1f} us per operation that stays in software.",
    )
    notes.insert(
        1,
        f"Hardware at the records' clocks (100 MHz assumed), {transfer.name} bus "
        f"({transfer.fixed_us:.2f} us per call + {transfer.us_per_byte * 1e3:.3f} ns per "
        "byte); the plan minimises keygen + encaps + decaps. Speed-up: software alone over "
        "the plan (`bikeco plan --kem <set> --device <part>`).",
    )
    return MlkemSection(header, rows, tuple(notes))
