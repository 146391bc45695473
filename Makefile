# Front door. `make run` and `make test` install missing Debian packages first.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all deps deps-clickhouse build build-tool install run test asan tsan bench fuzz format format-check clean

all: build

deps:
	@scripts/deps.sh build

build: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) -- --no-print-directory

# Only the tool and its library, quietly: what `make run` needs.
build-tool: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target kifu_cli -- --no-print-directory >/dev/null

# The main job on bundled samples the project wrote itself; each part is labelled.
run: build-tool
	@echo "== kifu show samples/opening.kifu   (the last position of a record)"
	@./$(BUILD)/kifu show samples/opening.kifu
	@echo
	@echo "== kifu convert samples/opening.kifu -t csa   (KIF to CSA; CSA cannot hold the fork)"
	@./$(BUILD)/kifu convert samples/opening.kifu -t csa
	@echo
	@echo "== kifu convert samples/opening.kifu -t posjson   (the record as positions, one JSON entry each)"
	@./$(BUILD)/kifu convert samples/opening.kifu -t posjson
	@echo
	@echo "== kifu search --usi 'position startpos moves 2g2f 3c3d 7g7f' --forks samples/   (a transposition, found in a fork)"
	@./$(BUILD)/kifu search --usi 'position startpos moves 2g2f 3c3d 7g7f' --forks samples/
	@echo
	@echo "== kifu html samples/opening.kifu -o $(BUILD)/opening.html   (a self-contained replay page)"
	@./$(BUILD)/kifu html samples/opening.kifu -o $(BUILD)/opening.html
	@echo "wrote $(abspath $(BUILD))/opening.html: open it in a browser (click the board's right half to step)"
	@echo
	@echo "== kifu index build samples/collection -o $(BUILD)/samples.kdb; kifu index info   (eight games in an index)"
	@./$(BUILD)/kifu index build samples/collection -o $(BUILD)/samples.kdb
	@./$(BUILD)/kifu index info $(BUILD)/samples.kdb
	@echo
	@echo "== kifu explore $(BUILD)/samples.kdb --moves 7g7f 3c3d 2g2f 8c8d   (four games reached it in three orders)"
	@./$(BUILD)/kifu explore $(BUILD)/samples.kdb --moves 7g7f 3c3d 2g2f 8c8d
	@echo
	@echo "== kifu explore $(BUILD)/samples.kdb --player 佐藤 --json   (佐藤's games only, as JSON)"
	@./$(BUILD)/kifu explore $(BUILD)/samples.kdb --player 佐藤 --json
	@echo
	@echo "== kifu serve $(BUILD)/samples.kdb --listen 127.0.0.1:0   (the explorer in a browser; one API answer, then stopped)"
	@scripts/serve_once.sh ./$(BUILD)/kifu $(BUILD)/samples.kdb 'api/explore?moves=7g7f,3c3d&top=1'
	@echo
	@echo "== kifu perft startpos 4   (the rules engine's leaf count)"
	@./$(BUILD)/kifu perft startpos 4

# `make install PREFIX=/usr DESTDIR=/tmp/stage`: the tool, libkifu.so and .a, kifu.h,
# kifu.pc, the man pages and the bash completion (a build of its own, so the prefix
# is what the build is configured with).
install: deps
	@cmake -S . -B build-install -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-install -j $(JOBS) -- --no-print-directory >/dev/null
	DESTDIR=$(DESTDIR) cmake --install build-install

# The ClickHouse test starts its own servers: their package is wanted, not required.
deps-clickhouse:
	@scripts/deps.sh clickhouse || echo "kifu: clickhouse-server not installed: the clickhouse test will skip" >&2

# The browser tests skip, saying so, only when Chromium cannot be installed.
test: build deps-clickhouse
	@scripts/deps.sh browser || echo "kifu: chromium could not be installed: the browser tests will skip" >&2
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan: deps deps-clickhouse
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKIFU_SANITIZE=ON >/dev/null
	@cmake --build build-asan -j $(JOBS) -- --no-print-directory
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -j $(JOBS)

# ThreadSanitizer: the suite's unit tests (test_threads reads, normalizes, writes, clones
# and walks in four threads) fail on any data race in the library, and cli_batch on one
# in the tool's batch (convert and validate on several threads).
tsan: deps
	@cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKIFU_TSAN=ON >/dev/null
	@cmake --build build-tsan -j $(JOBS) -- --no-print-directory
	cd build-tsan && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 exitcode=66" \
		ctest --output-on-failure -j $(JOBS) -R '^(test_|cli_batch$$|cli_index_jobs$$)'

bench:
	@scripts/deps.sh bench
	@cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DKIFU_NATIVE=ON -DBUILD_TESTING=OFF >/dev/null
	@cmake --build build-bench -j $(JOBS) -- --no-print-directory
	@scripts/deps.sh clickhouse || echo "kifu: clickhouse-server not installed: the bench leaves ClickHouse out" >&2
	bench/clickhouse.sh ./build-bench/kifu_bench $(BENCH_ARGS)
	@python3 bench/html_paint.py build-bench/html/game300.html
	@[ ! -f build-bench/games.kdb ] || bench/serve.sh ./build-bench/kifu build-bench/games.kdb || \
		echo "kifu: bench/serve.sh: a goal missed (above)" >&2

# Each libFuzzer target for FUZZ_SECONDS, seeded from fuzz/corpus/<name>/ with
# fuzz/dict/<name>.dict; new inputs go to build-fuzz/corpus/, crashes to
# build-fuzz/findings/. Fails when any target found something.
FUZZ_SECONDS ?= 60
fuzz:
	@scripts/deps.sh fuzz
	@CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKIFU_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
	@cmake --build build-fuzz -j $(JOBS) -- --no-print-directory
	@mkdir -p build-fuzz/findings; touch build-fuzz/.fuzz-start; found=0; \
	for t in build-fuzz/fuzz/fuzz_*; do \
		case $$t in *_replay) continue;; esac; \
		[ -x $$t ] || continue; \
		name=$$(basename $$t); short=$${name#fuzz_}; mkdir -p build-fuzz/corpus/$$name; \
		dict=; [ -f fuzz/dict/$$short.dict ] && dict=-dict=fuzz/dict/$$short.dict; \
		seeds=; [ -d fuzz/corpus/$$short ] && seeds=fuzz/corpus/$$short; \
		echo "== $$name ($(FUZZ_SECONDS) s)"; \
		$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
			-artifact_prefix=build-fuzz/findings/$$name- $$dict build-fuzz/corpus/$$name $$seeds \
			> build-fuzz/$$name.log 2>&1; \
		grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ?ERROR|^SUMMARY' build-fuzz/$$name.log || true; \
		n=$$(find build-fuzz/findings -name "$$name-*" -newer build-fuzz/.fuzz-start | wc -l); \
		if [ "$$n" -gt 0 ]; then found=1; echo "   $$n finding(s): build-fuzz/findings/$$name-* (log: build-fuzz/$$name.log)"; \
		else echo "   no findings"; fi; \
	done; \
	if [ $$found -ne 0 ]; then echo "fuzz: findings in build-fuzz/findings/ (replay: build-fuzz/fuzz/<target>_replay FILE)"; exit 1; fi

# Every C file git tracks; `make format-check` (run by CI) fails when `make format` would
# change one.
FORMAT_FILES = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	@scripts/deps.sh lint
	clang-format -i $(FORMAT_FILES)

format-check:
	@scripts/deps.sh lint
	@clang-format --dry-run -Werror $(FORMAT_FILES) && echo "format-check: $(words $(FORMAT_FILES)) files formatted"

clean:
	rm -rf build build-asan build-bench build-fuzz build-install build-tsan
