#!/usr/bin/env python3
"""Write tests/mlkem/acvp/mlkem_acvp.txt, a trimmed subset of NIST's ACVP
vectors for ML-KEM (FIPS 203), from the two "internal projection" files of
usnistgov/ACVP-Server (gen-val/json-files/ML-KEM-keyGen-FIPS203 and
ML-KEM-encapDecap-FIPS203), which hold inputs and expected outputs.

Kept, for each of ML-KEM-512, -768 and -1024: the first KEYGEN key
generation tests, the first ENCAPS encapsulation tests, and every
decapsulation test (ACVP's VAL groups: one decapsulation key, ten
ciphertexts, about half of them modified, whose expected key is then the
implicit-rejection one). Values are copied as they are (hex, lower case).
One record per line, space-separated:

    keygen SET tcId d z ek dk
    encaps SET tcId ek m c k
    dk SET dk
    decaps SET tcId c k valid|modified      (with the last dk line's key)

Usage: acvp_extract.py KEYGEN_JSON ENCAPDECAP_JSON SOURCE_NOTE > mlkem_acvp.txt
SOURCE_NOTE becomes the file's first (comment) line.
"""

import json
import sys
from typing import Any

KEYGEN = 2
ENCAPS = 2
SETS = {"ML-KEM-512": 512, "ML-KEM-768": 768, "ML-KEM-1024": 1024}
REASONS = {"no modification": "valid", "modify ciphertext": "modified"}


def load(path: str) -> list[dict[str, Any]]:
    with open(path) as f:
        groups: list[dict[str, Any]] = json.load(f)["testGroups"]
    return groups


def main() -> None:
    keygen, encap_decap, note = sys.argv[1:4]
    out = [f"# {note}"]
    for g in load(keygen):
        for t in g["tests"][:KEYGEN]:
            fields = [t["d"], t["z"], t["ek"], t["dk"]]
            out.append(f"keygen {SETS[g['parameterSet']]} {t['tcId']} " + " ".join(fields).lower())
    for g in load(encap_decap):
        s = SETS[g["parameterSet"]]
        if g["function"] == "encapsulation":
            for t in g["tests"][:ENCAPS]:
                fields = [t["ek"], t["m"], t["c"], t["k"]]
                out.append(f"encaps {s} {t['tcId']} " + " ".join(fields).lower())
        elif g["function"] == "decapsulation":
            out.append(f"dk {s} {g['dk'].lower()}")
            for t in g["tests"]:
                out.append(
                    f"decaps {s} {t['tcId']} {t['c'].lower()} {t['k'].lower()} "
                    + REASONS[t["reason"]]
                )
    print("\n".join(out))


if __name__ == "__main__":
    main()
