#!/usr/bin/env python3
"""Which libbike back ends a ctest run actually tested.

    backends_tested.py JUNIT.xml

Reads ctest's JUnit record (`ctest --output-junit`) and prints, per back end,
whether its tests (backend_<name>, which names the back ends, then
kat_L<N>_<name> and constant_time_<name>) passed, failed or were skipped
(status 77: this CPU cannot run it), so that a skipped back end is never
mistaken for a passing one. Exits 1 if a back end
has no test at all in the record.
"""

import re
import sys
import xml.etree.ElementTree as ET

PATTERN = re.compile(r"^(?:backend|kat_L[135]|constant_time)_(?P<backend>[a-z0-9-]+)$")


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        root = ET.parse(sys.argv[1]).getroot()
    except (OSError, ET.ParseError) as e:
        sys.exit(f"backends_tested: cannot read {sys.argv[1]}: {e}")
    seen: dict[str, dict[str, int]] = {}
    for case in root.iter("testcase"):
        m = PATTERN.match(case.get("name", ""))
        if not m:
            continue
        status = case.get("status", "run")
        if case.find("skipped") is not None or status == "notrun":
            outcome = "skipped"
        elif case.find("failure") is not None or status == "fail":
            outcome = "failed"
        else:
            outcome = "passed"
        counts = seen.setdefault(m.group("backend"), {"passed": 0, "failed": 0, "skipped": 0})
        counts[outcome] += 1
    # A back end is what has a backend_<name> test (constant_time_canary is not).
    names = {
        c.get("name", "")[len("backend_") :]
        for c in root.iter("testcase")
        if c.get("name", "").startswith("backend_")
    }
    seen = {b: c for b, c in seen.items() if b in names}
    if not seen:
        print("back ends tested: none found in the record", file=sys.stderr)
        return 1
    ran = [b for b, c in seen.items() if c["passed"] or c["failed"]]
    skipped = [b for b, c in seen.items() if c["skipped"]]
    for b, c in seen.items():
        print(f"  back end {b}: {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped")
    print(
        f"back ends tested: {' '.join(ran) or 'none'}; "
        f"skipped (this CPU cannot run them): {' '.join(skipped) or 'none'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
