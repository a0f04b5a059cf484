#!/usr/bin/env bash
# Regenerate every record that `python -m hwflow check-records` calls stale or
# mismatched, in dependency order: xc7 synthesis reports, the results records
# and TABLE.md (their resources come from the reports), ECP5 routes, the
# verified designs, ML-KEM's co-simulation record, the long validation.
# Resumable: a step whose records are all current is skipped, and within a
# step the flow reruns only what changed (synthesis by input hash,
# simulations from build/cache and the best runs, validation by its
# finished shards). One job at a time unless HW_WORKERS says
# otherwise. Run from anywhere: hw/scripts/regen.sh (or make -C hw regen);
# DRY=1 prints the commands it would run instead.
# README.md, "Regenerating the records", says what it costs.
set -euo pipefail
HW=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO=$(cd "$HW/.." && pwd)
cd "$HW"
PY=${PYTHON:-$REPO/.venv/bin/python}
export HW_WORKERS=${HW_WORKERS:-1} HW_JOBS=${HW_JOBS:-1}
export BIKE_KAT_DIR=${BIKE_KAT_DIR:-$REPO/../shared/kat}
NICE=${NICE:-nice -n 19}
run() { if [ -n "${DRY:-}" ]; then echo "+ $*"; else "$@"; fi; }
flow() { run $NICE "$PY" -m hwflow "$@"; }

# the check-records lines (stale / mismatch) whose item matches an ERE
pending() { "$PY" -m hwflow check-records | grep -E "^(stale|mismatch): ($1)" || true; }
step() { printf '\n== regen: %s\n' "$*"; }

# 1. xc7 synthesis: the units' and KEM shapes' reports, then the shell's devices
if [ -n "$(pending '[a-z0-9_]+/syn/reports/')" ]; then
  step "synthesis"
  run $NICE make synth synth-acc
else
  step "synthesis: current"
fi

# 2. results records (cycles from simulation, resources from step 1) of the
# cores whose record differs from its sources or the cycle formulas, with the
# vector counts of `make results` (which writes the table)
TODO=$("$PY" -m hwflow check-records --pending-cores)
if [ -n "$TODO" ]; then
  step "results records: ${TODO//$'\n'/ }"
  run $NICE make results PYTHON="$PY" RESULTS_CORES="${TODO//$'\n'/ }"
else
  step "results records: current"
fi

# 3. ECP5 place and route of the stale reports (ip/<ip>/syn/pnr/)
if [ -n "$(pending '[a-z0-9_]+/syn/pnr/')" ]; then
  step "place and route"
  flow pnr --stale
fi

# 4. the verified designs (bikeco verify; a record that ended with a refit
# keeps its earlier builds)
pending 'results/designs/' | sed -E 's/^[a-z]+: results\/designs\/([^/]+)\/.*/\1/' |
  while read -r name; do
    keep=$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1])).get("attempts") or []))' \
      "results/designs/$name/verify.json")
    opts=()
    # (not `check-records | grep -q`: under pipefail, grep leaving early breaks the pipe)
    if [ "$keep" -gt 1 ] && grep -q "^stale: results/designs/$name/" <<<"$("$PY" -m hwflow check-records)"; then
      opts=(--keep-attempts)
    fi
    step "bikeco verify $name ${opts[*]}"
    (cd "$REPO" && run $NICE .venv/bin/bikeco verify "hw/results/designs/$name/design.json" \
      --kat 100 --random 10 --workers "$HW_WORKERS" "${opts[@]}")
  done

# 5. ML-KEM's co-simulation record on ntt_acc
if [ -n "$(pending 'results/cosim/')" ]; then
  step "ML-KEM co-simulation record"
  run $NICE make cosim-mlkem-record
fi

# 6. the long validation: each stale record again, with its own core,
# preset, level and count of KEMs (one check-records for them all)
VALIDATION=$(pending 'results/validation/')
for record in results/validation/*.json; do
  if grep -qF "$record" <<<"$VALIDATION"; then
    read -r core preset level runs < <("$PY" -c 'import json, sys
r = json.load(open(sys.argv[1]))
print(r["core"], r["preset"], r["level"], r["runs"])' "$record")
    step "validation $core $preset L$level ($runs KEMs)"
    flow validate --cores "$core" --presets "$preset" --levels "$level" --runs "$runs"
  fi
done
step "table and check-records"
run make table
run "$PY" -m hwflow check-records --strict
cat <<'EOF'
Left by hand (README.md, "Regenerating the records"): the CYCLES table of
ip/bike_kem/doc/bike_kem.md, the tables of ../docs/placement.md (make
test-placements), make -C ../python golden (review the diff).
EOF
