"""Layer 4, interconnect: the cost of moving data between the CPU and an accelerator.

The model is a fixed cost per accelerator call plus the bytes moved over a bandwidth::

    t_us = calls * fixed_us + (bytes_in + bytes_out) * us_per_byte

It is calibrated by least squares on seed 004 Table 5 (Zynq UltraScale+, bare metal DMA or
SDSoC data movers): each row gives the total bytes in and out, the number of accelerator calls
and the measured transfer time. ``none`` switches transfers off, as seeds 000 and 001 account.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import nnls

from bikeco.data_files import read_table
from bikeco.errors import BikecoError
from bikeco.levels import LEVELS, SEED_BYTES

INTERCONNECTS: tuple[str, ...] = ("none", "baremetal", "sdsoc")


@dataclass(frozen=True)
class TransferModel:
    """Fixed microseconds per call plus microseconds per byte moved."""

    name: str
    fixed_us: float
    us_per_byte: float
    rms_error_us: float = 0.0

    def time_ms(self, calls: int, nbytes: int) -> float:
        """Transfer time in milliseconds for ``calls`` calls moving ``nbytes`` bytes in all."""
        return (calls * self.fixed_us + nbytes * self.us_per_byte) / 1000.0

    @property
    def bandwidth_mb_s(self) -> float:
        """Bandwidth in MB/s (10^6 bytes per second); infinite when transfers are free."""
        return math.inf if self.us_per_byte == 0 else 1.0 / self.us_per_byte


def calibrate(kind: str) -> TransferModel:
    """The model ``none``, or one fitted to seed 004 Table 5 (``baremetal`` or ``sdsoc``)."""
    if kind == "none":
        return TransferModel("none", 0.0, 0.0)
    if kind not in INTERCONNECTS:
        raise BikecoError(f"unknown interconnect '{kind}' (choose from {', '.join(INTERCONNECTS)})")
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
