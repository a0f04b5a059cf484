"""A plan's hardware assignments as the driver's placement description
(docs/placement.md): one line ``<target> <device> <preset>`` per target, the
text ``bike-cosim`` and ``bike_acc_placement_parse`` read."""

from __future__ import annotations

from typing import Any

# Cores that share one shell device (hw/ip/acc_shell/doc/acc_shell.md).
SHARED_DEVICE = {"keccak": "keccak_sampler_acc", "sampler": "keccak_sampler_acc"}


def device_of(core: str) -> str:
    """The shell device of a plan's core: <core>_acc (gf2x_mul_acc, a KEM
    shape's bike_kem_decaps_acc), or the one Keccak and the sampler share."""
    return SHARED_DEVICE.get(core, f"{core}_acc")


def placement_text(plan: dict[str, Any]) -> str:
    """The placement of a plan (the ``--json`` form): its assignments in order."""
    units = {u["name"]: u for u in plan["units"]}
    lines = [
        f"# bikeco plan --device {plan['device']} --level {plan['level']}"
        f" --hw-source {plan['hw_source']}: {len(plan['assignments'])} targets in hardware"
    ]
    for a in plan["assignments"]:
        unit = units[a["unit"]]
        lines.append(f"{a['target']} {device_of(unit['core'])} {unit['config']}")
    return "\n".join(lines) + "\n"
