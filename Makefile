# Front door. `make run` and `make test` install missing Debian packages first.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build run test asan bench fuzz format clean

all: build

deps:
	@scripts/deps.sh build

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job on bundled samples the project wrote itself.
run: build
	./$(BUILD)/kifu show samples/opening.kifu
	./$(BUILD)/kifu convert samples/opening.kifu -t csa
	./$(BUILD)/kifu perft startpos 4

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan: deps
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKIFU_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS)

bench:
	@scripts/deps.sh bench
	@cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DKIFU_NATIVE=ON -DBUILD_TESTING=OFF >/dev/null
	@cmake --build build-bench -j $(JOBS)
	./build-bench/kifu_bench $(BENCH_ARGS)

FUZZ_SECONDS ?= 60
fuzz:
	@scripts/deps.sh fuzz
	@CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKIFU_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS)
	@for t in build-fuzz/fuzz/fuzz_*; do \
		case $$t in *_replay) continue;; esac; \
		name=$$(basename $$t); mkdir -p build-fuzz/corpus/$$name; \
		echo "== $$name ($(FUZZ_SECONDS) s)"; \
		$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-dict=fuzz/dict/$${name#fuzz_}.dict build-fuzz/corpus/$$name fuzz/corpus/$${name#fuzz_} 2>&1 \
			| grep -E 'stat::number_of_executed_units|ERROR|SUMMARY' || true; \
	done

format:
	clang-format -i include/*.h src/*.[ch] src/*/*.[ch] cli/*.[ch] tests/unit/*.[ch] bench/*.c fuzz/*.c

clean:
	rm -rf build build-asan build-bench build-fuzz
