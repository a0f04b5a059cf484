"""A plan's hardware assignments as the driver's placement description
(docs/placement.md): one line ``<target> <device> <preset>`` per target, the
text ``bike-cosim`` and ``bike_acc_placement_parse`` read."""

from __future__ import annotations

from typing import Any

# The shell device of a plan's core where its name differs (the KEM shapes'
# devices are named after the shape).
DEVICE_OF_CORE = {"gf2x_mul": "gf2x_mul_acc", "gf2x_inv": "gf2x_inv_acc"}


def placement_text(plan: dict[str, Any]) -> str:
    """The placement of a plan (the ``--json`` form): its assignments in order."""
    units = {u["name"]: u for u in plan["units"]}
    lines = [
        f"# bikeco plan --device {plan['device']} --level {plan['level']}"
        f" --hw-source {plan['hw_source']}: {len(plan['assignments'])} targets in hardware"
    ]
    for a in plan["assignments"]:
        unit = units[a["unit"]]
        device = DEVICE_OF_CORE.get(unit["core"], unit["core"])
        lines.append(f"{a['target']} {device} {unit['config']}")
    return "\n".join(lines) + "\n"
