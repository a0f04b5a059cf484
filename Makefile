# bikeco: the entry points. `make` builds everything into build/.
#   make report   the main job (README): set up, build, and run it
#   make test     set up, build, and run every test (what CI runs)
#   make bench    libbike's benchmark tables (run with the other cores idle)
JOBS ?= 2
BUILD := build
ASAN_BUILD := build-asan
CMAKE_FLAGS ?=

.PHONY: all setup build test test-c test-asan demo report bench clean

all: build

setup:
	./scripts/setup.sh

build:
	cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

test-c: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure

# AddressSanitizer + UndefinedBehaviorSanitizer build of the same tests
# (valgrind's constant-time test cannot run under ASan and is left out).
test-asan:
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBIKE_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest -j $(JOBS) --output-on-failure

test: setup
	$(MAKE) test-c
	$(MAKE) test-asan

# A KEM round trip through the tool at each level, then the benchmark.
demo: build
	./scripts/demo.sh $(BUILD)/bin/bike

report: setup
	$(MAKE) demo

bench: build
	$(BUILD)/bin/bike bench

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
