# occ - the two set-up commands are `make run` and `make test` (README.md).
# CMake does the building underneath; this file names the jobs.

BUILD       ?= build
BUILD_ASAN  ?= build-asan
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

BUILD_FUZZ  ?= build-fuzz
FUZZ_SECONDS ?= 20

.PHONY: all run web test test-release test-python test-asan fuzz bench format format-check deps deps-test deps-web clean \
        install install-build uninstall

all: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# The main job on a built-in default: an H200 kernel, explained. Builds only
# the occ executable and prints only the answer (the build's output goes to
# build/make-run.log and is shown if the build fails).
run: deps
	@scripts/quietly.sh $(BUILD)/make-run.log sh -c 'cmake -S . -B $(BUILD) \
	    -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) && cmake --build $(BUILD) --target occ -j $(JOBS)'
	@echo '$$ occ explain --gpu H200 --threads 256 --regs 64 --smem 16K'
	@$(BUILD)/occ explain --gpu H200 --threads 256 --regs 64 --smem 16K
	@if [ -f $(BUILD)/web/index.html ]; then \
	    echo; echo "The occupancy page: file://$(abspath $(BUILD))/web/index.html"; fi

# The format check, every test twice (warnings as errors, then under ASan +
# UBSan; the page's browser test once: it runs the wasm, which no sanitizer
# instruments), the Python package in a fresh venv, and each file parser's
# libFuzzer target run for FUZZ_SECONDS in between.
test: deps-test format-check test-release test-python fuzz test-asan

# The C sources as .clang-format says (CONTRIBUTING.md).
format-check:
	@scripts/format.sh check

format:
	@scripts/format.sh fix

test-release:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DOCC_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The Python package as a user installs it: a fresh venv, pip install ./python,
# its pytest suite against $(BUILD)/occ (docs/python.md).
test-python:
	python/tests/run_venv_tests.sh $(BUILD)

test-asan:
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DOCC_WERROR=ON -DOCC_SANITIZE=ON \
	      -DOCC_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    ctest --output-on-failure -j $(JOBS) -LE web

fuzz:
	CC=clang-14 cmake -S . -B $(BUILD_FUZZ) -DOCC_FUZZ=ON -DOCC_TESTS=OFF -DOCC_BENCH=OFF \
	    $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_FUZZ) --target fuzzers -j $(JOBS)
	fuzz/run.sh $(BUILD_FUZZ) $(FUZZ_SECONDS) $(JOBS)

# The occupancy page, libocc in WebAssembly: build/web/ (docs/web.md).
web: deps-web
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) --target web
	@echo "open file://$(abspath $(BUILD))/web/index.html"

bench: all
	$(BUILD)/bench_occ_calc

# Installs what $(BUILD) holds under $(PREFIX), staged under $(DESTDIR) if
# given (cmake/install.cmake lists it). Builds first only what the install
# copies (the target occ_install_files: occ, occ-lab where nvcc is, the
# libraries, the man-page generator; not the tests, benchmarks or fuzz
# replays), configuring $(BUILD) where it never was and leaving a build
# directory that exists as it was configured.
# `make -o install-build install` installs without building.
PREFIX ?= /usr/local
DESTDIR ?=
install: install-build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

install-build: deps
	@[ -f $(BUILD)/CMakeCache.txt ] || \
	    cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) --target occ_install_files -j $(JOBS)

# Removes what the last `make install` from $(BUILD) put in place, as
# $(BUILD)/install_manifest.txt lists it; give the install's DESTDIR again.
uninstall:
	DESTDIR="$(DESTDIR)" cmake -DMANIFEST="$(abspath $(BUILD))/install_manifest.txt" -P packaging/uninstall.cmake


deps:
	@scripts/deps.sh build

deps-test:
	@scripts/deps.sh test

deps-web:
	@scripts/deps.sh web

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
