"""Layer 4, interconnect: the cost of moving data between the CPU and an accelerator.

The model is a fixed cost per accelerator call plus the bytes moved over a bandwidth::

    t_us = calls * fixed_us + (bytes_in + bytes_out) * us_per_byte

``baremetal`` and ``sdsoc`` are calibrated by least squares on seed 004 Table 5 (Zynq
UltraScale+, bare metal DMA or SDSoC data movers): each row gives the total bytes in and out,
the number of accelerator calls and the measured transfer time. ``none`` switches transfers
off, as seeds 000 and 001 account.

``driver`` is this project's C driver (``driver/``) on a Zynq-7000 as its co-simulation
platform times it (``driver/README.md``, "Timing model"): every call costs the register
accesses of ``bike_acc_run`` outside the device's run, the DMA's set-up and the interrupt's
latency (:func:`driver_cycles`, fixed per call), and the device's own CYCLES hold the words
streamed in and out (the unit devices' in :func:`bikeco.hwcycles.acc_cycles`, a KEM core's in
:func:`bikeco.hwcycles.kem_acc_stream_cycles`), so ``us_per_byte`` is 0 and
:meth:`TransferModel.target_ms` adds the stream cycles at the design's clock. It is the default
of ``bikeco design`` and ``bikeco verify`` (:data:`DESIGN_INTERCONNECT`); the tests hold its
prediction to the co-simulated runs of the committed verify records.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np
from scipy.optimize import nnls

from bikeco.data_files import read_table
from bikeco.errors import BikecoError
from bikeco.hwcycles import PRIMS, kem_acc_stream_cycles
from bikeco.levels import LEVELS, SEED_BYTES

INTERCONNECTS: tuple[str, ...] = ("none", "baremetal", "sdsoc", "driver")
DESIGN_INTERCONNECT = "driver"
"""The transfers `bikeco design` and `bikeco verify` assume: the co-simulated driver's."""


@dataclass(frozen=True)
class DriverTiming:
    """The CPU side's costs of the co-simulated driver in PL cycles: the defaults of
    ``driver/src/cosim.cpp`` (a Zynq-7000 PS at 667 MHz on M_AXI_GP0, an AXI DMA on S_AXI_HP0,
    the PL at 100 MHz; a test keeps them equal)."""

    pl_mhz: int = 100
    read_cycles: int = 20
    write_cycles: int = 12
    dma_setup_cycles: int = 100
    irq_cycles: int = 700


RUN_READS = 5
"""Register reads of one ``bike_acc_run`` (``driver/src/acc.c``, interrupt wait) outside the
device's run: WORDS and STATUS before START, STATUS after the interrupt, the DMA's status
after the results, CYCLES. (The STATUS read between START and the wait overlaps the run.)"""
RUN_WRITES = 6
"""Register writes of one ``bike_acc_run`` outside the device's run: CTRL.OP, INTR_STATE,
INTR_ENABLE, CTRL.START, INTR_STATE after the interrupt and at the end."""


def driver_timing(rec: dict[str, int]) -> DriverTiming:
    """The timing of a co-simulation record (its ``timing`` object)."""
    try:
        return DriverTiming(**{f.name: int(rec[f.name]) for f in fields(DriverTiming)})
    except (KeyError, TypeError, ValueError) as exc:
        raise BikecoError(f"the co-simulation's timing has no usable {exc}") from None


def driver_cycles(t: DriverTiming | None = None) -> int:
    """PL cycles one ``bike_acc_run`` adds to the device's run: its register accesses outside
    the run, the DMA's set-up (START comes before it, so the device waits for it) and the
    interrupt's latency."""
    t = t or DriverTiming()
    return (
        RUN_READS * t.read_cycles + RUN_WRITES * t.write_cycles + t.dma_setup_cycles + t.irq_cycles
    )


def run_cycles(target: str, level: int, device_cycles: int, t: DriverTiming | None = None) -> int:
    """PL cycles of one ``bike_acc_run`` of ``target`` through the driver: the device's cycles
    (a KEM core's primitive, or a unit device's CYCLES), a KEM core's stream cycles, and the
    driver's fixed cost (:func:`driver_cycles`)."""
    streams = kem_acc_stream_cycles(level, target) if target in PRIMS else 0
    return device_cycles + streams + driver_cycles(t)


@dataclass(frozen=True)
class TransferModel:
    """Fixed microseconds per call plus microseconds per byte moved."""

    name: str
    fixed_us: float
    us_per_byte: float
    rms_error_us: float = 0.0
    device_streams: bool = False
    """The words move inside the device's CYCLES (the ``driver`` model): a KEM core's target
    adds its stream cycles (:meth:`target_ms`)."""

    def time_ms(self, calls: int, nbytes: int) -> float:
        """Transfer time in milliseconds for ``calls`` calls moving ``nbytes`` bytes in all."""
        return (calls * self.fixed_us + nbytes * self.us_per_byte) / 1000.0

    def target_ms(self, target: str, level: int, clock_mhz: float) -> float:
        """Transfer time in milliseconds of one call of ``target`` (a primitive or
        ``primitive.operation``) on an accelerator clocked at ``clock_mhz``."""
        t = self.time_ms(1, target_bytes(target, level))
        if self.device_streams and target in PRIMS:
            t += kem_acc_stream_cycles(level, target) / (clock_mhz * 1e3)
        return t

    @property
    def bandwidth_mb_s(self) -> float:
        """Bandwidth in MB/s (10^6 bytes per second); infinite when transfers are free."""
        return math.inf if self.us_per_byte == 0 else 1.0 / self.us_per_byte


def calibrate(kind: str) -> TransferModel:
    """The model ``none``, the co-simulated ``driver``'s, or one fitted to seed 004 Table 5
    (``baremetal`` or ``sdsoc``)."""
    if kind == "none":
        return TransferModel("none", 0.0, 0.0)
    if kind not in INTERCONNECTS:
        raise BikecoError(f"unknown interconnect '{kind}' (choose from {', '.join(INTERCONNECTS)})")
    if kind == "driver":
        t = DriverTiming()
        return TransferModel("driver", driver_cycles(t) / t.pl_mhz, 0.0, device_streams=True)
    rows = read_table("transfer_004_table5.csv")
    a = np.array([[float(r["calls"]), float(r["bytes_in"]) + float(r["bytes_out"])] for r in rows])
    b = np.array([float(r[f"{kind}_us"]) for r in rows])
    coef, _ = nnls(a, b)
    rms = float(np.sqrt(np.mean((a @ coef - b) ** 2)))
    return TransferModel(kind, float(coef[0]), float(coef[1]), rms)


def poly_bytes(level: int) -> int:
    """Bytes of one dense polynomial of the level."""
    if level not in LEVELS:
        raise BikecoError(f"unknown BIKE level {level} (use 1, 3 or 5)")
    return LEVELS[level].r_bytes


def target_bytes(target: str, level: int) -> int:
    """Bytes moved (in plus out) when ``target`` (a primitive or ``primitive.operation``) runs
    on an accelerator: the operands it reads from and writes to the CPU's memory."""
    p = poly_bytes(level)
    s = SEED_BYTES
    op = target.split(".", 1)[1] if "." in target else target
    table = {
        "keygen": s * 2 + (3 * p + s),  # seeds in; pk, dense h0 and h1, sigma out
        "encaps": (p + s) + (p + s + s),  # pk, m in; ciphertext (c0, c1), K out
        "decaps": (2 * p + s) + (p + s) + s,  # dense sk, sigma; ciphertext in; K out
        "multiplication": 2 * p + p,
        "inversion": p + p,
        "decoding": 3 * p + 2 * p,  # syndrome, h0, h1 in; e0, e1 out
        "prng": s + 2 * p,
        "h_function": s + 2 * p,
        "l_function": 2 * p + s,
        "k_function": (s + p + s) + s,
        "other": 0,
    }
    if op not in table:
        raise BikecoError(f"no transfer size known for '{target}'")
    return table[op]
