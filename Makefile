# bikeco: the entry points. `make` builds everything into build/.
#   make report   the main job (README): the co-design report in report/
#   make verify-designs  the report's long steps: design, build and verify each Zynq part
#   make demo     a KEM round trip per level through the bike tool, and bench
#   make test     set up, build, and run every test (what CI runs)
#   make hw-test  the hardware cores' lint and simulations (part of make test)
#   make test-cross  libbike, tool and driver for the Zynq CPUs under qemu-user (part of make test)
#   make bench    libbike's benchmark tables (run with the other cores idle)
#   make deb      Debian packages of libbike, the tool and the provider in build-deb/
JOBS ?= 2
BUILD := build
ASAN_BUILD := build-asan
MSAN_BUILD := build-msan
FUZZ_BUILD := build-fuzz
DEB_BUILD := build-deb
CMAKE_FLAGS ?=

.PHONY: all setup build test test-c test-asan test-ct-msan test-fuzz test-cross test-cross-full \
        test-python hw-test demo report verify-designs bench soak deb clean

all: build

setup:
	./scripts/setup.sh

build:
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# Then which back ends ran and which this CPU skipped (status 77).
test-c: build
	cd $(BUILD) && status=0; ctest -j $(JOBS) --output-on-failure --output-junit ctest.xml || status=$$?; \
	  python3 $(CURDIR)/scripts/backends_tested.py ctest.xml && exit $$status

# AddressSanitizer + UndefinedBehaviorSanitizer build of the same tests
# (valgrind's constant-time test cannot run under ASan and is left out).
test-asan:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBIKE_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest -j $(JOBS) --output-on-failure

# The constant-time check of every back end with MemorySanitizer (clang):
# valgrind cannot execute AVX-512 or VPCLMULQDQ code.
test-ct-msan:
	CC=clang cmake -S . -B $(MSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBIKE_MSAN=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(MSAN_BUILD) -j $(JOBS)
	cd $(MSAN_BUILD) && ctest -j $(JOBS) --output-on-failure

# The libFuzzer targets (tests/fuzz/, provider/fuzz/; docs/fuzzing.md), with
# ASan and UBSan (clang), each for BIKE_FUZZ_SECONDS (default 25) from seeds
# generated at start, JOBS targets at a time (each fuzzes on one core);
# prints each target's executions and coverage.
test-fuzz:
	CC=clang cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBIKE_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_targets
	rm -f $(FUZZ_BUILD)/fuzz-summary.txt
	cd $(FUZZ_BUILD) && ctest -j $(JOBS) --output-on-failure; status=$$?; \
	  echo "fuzz runs:"; cat fuzz-summary.txt; exit $$status

# libbike, the tool and the driver cross-built for the Zynq CPUs (armhf:
# Cortex-A9, aarch64: Cortex-A53; cmake/toolchains/), portable back end, and
# their tests under qemu-user: the unit tests and the first CROSS_KAT_RECORDS
# KAT records of each level (test-cross-full: all 100).
CROSS_ARCHS := armhf aarch64
CROSS_KAT_RECORDS ?= 10
test-cross: setup
	for arch in $(CROSS_ARCHS); do \
	  cmake -S . -B build-$$arch -G Ninja --toolchain cmake/toolchains/$$arch.cmake \
	        -DBIKE_KAT_RECORDS=$(CROSS_KAT_RECORDS) $(CMAKE_FLAGS) >/dev/null && \
	  cmake --build build-$$arch -j $(JOBS) && \
	  (cd build-$$arch && ctest -j $(JOBS) --output-on-failure) || exit 1; \
	done

test-cross-full:
	$(MAKE) test-cross CROSS_KAT_RECORDS=100

# The co-design explorer: ruff, mypy --strict and pytest, with the libbike
# binding's tests (hence the build) and the report's check in headless
# Chromium, and 30 s of atheris on the explorer's file inputs (python/tests/fuzz_inputs.py),
# JOBS of the three at a time; BIKECO_TESTS_REQUIRED=1 turns their skips for a
# missing library, KAT file or browser into failures.
test-python: setup build
	BIKECO_TESTS_REQUIRED=1 $(MAKE) -C python -j $(JOBS) --output-sync=target lint test fuzz

# The hardware cores: Verilator lint and the CI subset of the simulations,
# bit-exact against libbike (hw/README.md; `make -C hw test-full` for all).
hw-test: setup build
	LIBBIKE=$(abspath $(BUILD))/lib/libbike.a $(MAKE) -C hw test

test: setup
	$(MAKE) test-c
	$(MAKE) test-asan
	$(MAKE) test-ct-msan
	$(MAKE) test-fuzz
	$(MAKE) test-cross
	$(MAKE) test-python
	$(MAKE) hw-test

# A KEM round trip through the tool at each level, then the benchmark.
demo: build
	./scripts/demo.sh $(BUILD)/bin/bike

# The main job: the co-design report on built-in defaults, into report/.
report: setup build
	.venv/bin/bikeco report

# The long steps the report reads from committed records, run only when asked: each Zynq
# part's level-1 design (bikeco design), built, co-simulated and synthesised (bikeco verify:
# one to three KEM syntheses of 15-25 min each per part), then the report.
VERIFY_PARTS ?= xc7z010 xc7z015 xc7z020
verify-designs: setup build
	mkdir -p designs
	for p in $(VERIFY_PARTS); do \
	  .venv/bin/bikeco design --device $$p --level 1 --out designs/$${p}_L1_kem.json && \
	  .venv/bin/bikeco verify designs/$${p}_L1_kem.json --kat 100 --random 10 --workers $(JOBS) \
	  || exit 1; \
	done
	.venv/bin/bikeco report

bench: build
	$(BUILD)/bin/bike bench

# The TLS soak (provider/tests/soak.py, docs/tls.md): nginx with the provider on
# 127.0.0.1, SOAK_HANDSHAKES handshakes over bikel1, x25519_bikel1 and X25519
# from concurrent bench clients, one in ten with a malformed key share; fails on
# any failed handshake, a malformed one without an alert, or nginx's RSS growing
# more than 5 % after the first tenth. `make test` runs 2,000 (ctest provider.soak).
SOAK_HANDSHAKES ?= 100000
soak: build
	BIKEPROV_MODULE=$(abspath $(BUILD))/lib/bikeprovider.so python3 provider/tests/soak.py \
	  --handshakes $(SOAK_HANDSHAKES) --bench-client $(BUILD)/bin/bikeprov_tls_bench \
	  --json $(BUILD)/soak.json

# Configured for prefix /usr, so that the libraries go to Debian's multiarch
# folder and the provider to OpenSSL's modules folder (cmake/packaging.cmake).
deb:
	cmake -S . -B $(DEB_BUILD) -G Ninja -DCMAKE_INSTALL_PREFIX=/usr $(CMAKE_FLAGS) >/dev/null
	cmake --build $(DEB_BUILD) -j $(JOBS)
	cd $(DEB_BUILD) && cpack -G DEB

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(MSAN_BUILD) $(FUZZ_BUILD) $(DEB_BUILD) $(CROSS_ARCHS:%=build-%)
