"""What the testbenches need beyond the core files: how a design parameter
reaches the C++ testbench (a -D macro), and how each flow core is run."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Harness:
    defines: dict[str, str]  # RTL parameter -> testbench macro
    tb_defines: dict[str, int] = field(default_factory=dict)  # fixed macros
    record: bool = True  # a results record per preset and level
    synth: bool = True  # synthesised per preset (or by its syn_* targets)
    level_free: bool = False  # the testbench takes no level: simulated at one
    lint_levels: tuple[int, ...] = (1, 3, 5)
    # files the testbench reads besides the BIKE KATs (repository paths):
    # part of its simulations' cache key
    vector_files: tuple[str, ...] = ()


_MUL = {"W": "TB_W", "KaratsubaLevels": "TB_KL", "ParallelLevels": "TB_PL"}
_SPARSE = {
    "W": "TB_W",
    "P": "TB_P",
    "Counts": "TB_COUNTS",
    "Dual": "TB_DUAL",
    "Prefetch": "TB_PREFETCH",
    "Tile": "TB_TILE",
}
_KEM = Harness(
    defines={"Keygen": "TB_KEYGEN", "Encaps": "TB_ENCAPS", "Decaps": "TB_DECAPS"},
    # a Verilator lint of this design takes 10-20 s: L1 only (the level
    # parameters only size memories and counters)
    lint_levels=(1,),
)
_KEM_ACC = Harness(defines=_KEM.defines, record=False, synth=False, lint_levels=(1,))

HARNESS: dict[str, Harness] = {
    # the memories: a C++ model, no libbike operation, no record
    "bike_ram": Harness(
        defines={"Width": "TB_WIDTH", "Depth": "TB_DEPTH"}, record=False, level_free=True
    ),
    "gf2x_mul": Harness(defines=_MUL),
    "gf2x_sqr_k": Harness(defines={"W": "TB_W", "E": "TB_E"}),
    "gf2x_inv": Harness(defines={**_MUL, "E": "TB_E"}),
    "gf2x_inv_divstep": Harness(defines={"W": "TB_W", "K": "TB_K", "S": "TB_S"}),
    "keccak": Harness(defines={"RoundsPerCycle": "TB_RPC"}),
    "keccak_serial": Harness(defines={}, tb_defines={"TB_SERIAL": 1}),
    "sampler": Harness(defines={"RoundsPerCycle": "TB_RPC"}),
    "sparse_mul": Harness(defines=_SPARSE),
    "sparse_upc": Harness(defines=_SPARSE),
    # simulated on its own, synthesised inside the decoder
    "sparse_dual": Harness(defines=_SPARSE, record=False, synth=False),
    "bike_decoder": Harness(
        defines={"W": "TB_W", "P": "TB_P", "Prefetch": "TB_PREFETCH", "Tile": "TB_TILE"}
    ),
    # units behind the accelerator shell (ip/acc_shell): 64-bit words only;
    # one testbench, a macro per device but the multiplier
    "gf2x_mul_acc": Harness(defines={}, record=False),
    "gf2x_inv_acc": Harness(defines={}, tb_defines={"TB_INV": 1}, record=False),
    "sparse_mul_acc": Harness(defines={"P": "TB_P"}, tb_defines={"TB_SPARSE": 1}, record=False),
    "bike_decoder_acc": Harness(defines={"P": "TB_P"}, tb_defines={"TB_DECODER": 1}, record=False),
    "keccak_sampler_acc": Harness(
        defines={"RoundsPerCycle": "TB_RPC"}, tb_defines={"TB_KECCAK": 1}, record=False
    ),
    # the NTT behind the shell: its own testbench (dv/tb_ntt_acc.cpp)
    "ntt_acc": Harness(defines={}, record=False, level_free=True),
    # the NTT accelerator: no BIKE level (simulated and recorded at L1)
    "ntt": Harness(
        defines={
            "N": "TB_N",
            "Q": "TB_Q",
            "P": "TB_P",
            "Zeta": "TB_ZETA",
            "B": "TB_B",
            "Red": "TB_RED",
            "MontBits": "TB_MONT",
        },
        level_free=True,
    ),
    # ML-KEM's samplers: no BIKE level (simulated and recorded at L1)
    "mlkem_sampler": Harness(
        defines={"RoundsPerCycle": "TB_RPC"},
        level_free=True,
        vector_files=("tests/mlkem/acvp/mlkem_acvp.txt",),
    ),
    "bike_kem_keygen": _KEM,
    "bike_kem_server": _KEM,
    "bike_kem_decaps": _KEM,
    "bike_kem_client": _KEM,
    "bike_kem_full": _KEM,
    # the shapes as bus devices (bike_kem_acc.core): simulated through the
    # shell, not synthesised by the flow
    "bike_kem_keygen_acc": _KEM_ACC,
    "bike_kem_server_acc": _KEM_ACC,
    "bike_kem_decaps_acc": _KEM_ACC,
    "bike_kem_client_acc": _KEM_ACC,
    "bike_kem_full_acc": _KEM_ACC,
}


def macros(h: Harness, params: dict[str, int]) -> dict[str, int]:
    """The testbench's -D macros for a configuration."""
    out = {m: params[p] for p, m in h.defines.items() if p in params}
    out.update(h.tb_defines)
    return out
