# WebImage for Swift on Linux. `make test` is what CI runs (.ci/run); `make demo` is the README's main job.
SWIFT ?= swift
DEMO_OUT ?= demo-output
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
SOAK_CRASH_ROUNDS ?= 500
SOAK_STORM_LOADS ?= 200000

.PHONY: deps build test docs demo bench fuzz sanitize soak format lint clean

deps:
	@Scripts/install-deps

build: deps
	$(SWIFT) build

## Builds everything with zero warnings allowed in our code, then runs every test target in one `swift test`
## process. Tests run one at a time (--no-parallel): Swift's cooperative pool has one thread per core (two here), and
## the CPU-bound coder robustness tests, run side by side, would hold both for minutes while the pipeline tests wait
## on work in flight (measured: 45 issues, every one a wait that ran out, in a parallel run of the whole suite).
## Text in the SVG and PDF fixtures is rendered with DejaVu alone (Tests/Fixtures/fontconfig/fonts.conf), so that
## other fonts on the machine cannot change which font a family name falls back to.
test: deps
	@Scripts/build-checked
	FONTCONFIG_FILE=$(CURDIR)/Tests/Fixtures/fontconfig/fonts.conf $(SWIFT) test --skip-build --no-parallel

## Builds the DocC catalogs of WICore, WICoderSupport, WITransform, WIServeCore and WIServe with every warning an
## error (a missing symbol or a broken link fails it); their Swift blocks are compiled by `make test`
## (DocumentationTests). The archives land in .build/plugins/Swift-DocC/outputs.
DOC_TARGETS = WICore WICoderSupport WITransform WIServeCore WIServe
docs:
	$(SWIFT) package --disable-sandbox generate-documentation $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors

## Builds `wi` in release mode, the Swift runtime linked statically and the lazily opened codec libraries left out of
## its needed list (Scripts/wi-toolset.json; a faster start: see docs/PERFORMANCE.md, "Start-up"), and runs it over the sample images in Examples/Assets.
WI_BUILD = -c release --static-swift-stdlib --toolset Scripts/wi-toolset.json
demo: deps
	$(SWIFT) build $(WI_BUILD) --product wi
	@Scripts/demo "$$($(SWIFT) build $(WI_BUILD) --show-bin-path)/wi" "$(DEMO_OUT)"

## Runs our workloads and the references (raw C loops, Pillow, vipsthumbnail, curl --parallel against a local
## nginx, a requests + Pillow script, a local redis-server, thumbor under wrk) interleaved; prints the ratios.
## BENCH_ARGS="--write-docs" also rewrites docs/PERFORMANCE.md's table and plot. Not part of `make test`.
bench: deps
	@WI_EXTRA_PACKAGES="libvips-tools curl libjxl-tools libgdk-pixbuf-2.0-dev wrk liblcms2-utils" Scripts/install-deps
	Benchmarks/compare $(BENCH_ARGS)

## Builds the libFuzzer targets in Fuzz/ (a package of its own, -sanitize=fuzzer,address) and runs each for
## FUZZ_SECONDS at the lowest CPU priority (Scripts/low-priority), seeded from Tests/Fixtures; prints executions
## and findings per target. FUZZ_TARGETS="fuzz-png fuzz-gif" runs only those. See docs/RELIABILITY.md. Not part
## of `make test`.
fuzz: deps
	Fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## Every WICore, WICacheMemory and WITransform test (cancellation storms, coalescing, registry, pools, managers, the
## memory cache's 8-task hammer, the pixel loops on raw pointers) and the service's admission gate and request slots
## under ASan+LSan and TSan: any leak, memory error or race fails. SANITIZE_FILTER="..." picks fewer. Builds those three modules alone, once per sanitizer.
## CI runs it after `make test`.
sanitize: deps
	@Scripts/sanitize

## The disk cache crash test and the four-task cancellation storm, longer than in `make test`: SOAK_CRASH_ROUNDS
## SIGKILLed writers (default 500) and SOAK_STORM_LOADS loads (default 200000). Not part of `make test`.
## The test binary is run directly (`swift test` starts it at nice 0 even when itself runs under `nice -n 19`), at the
## lowest CPU priority: Scripts/low-priority also lowers it against other sessions (autogroup scheduling).
SOAK_TESTS = Scripts/low-priority "$$($(SWIFT) build --show-bin-path)/WebImagePackageTests.xctest" --testing-library swift-testing
soak: deps
	$(SWIFT) build --build-tests
	WI_SOAK_CRASH_ROUNDS=$(SOAK_CRASH_ROUNDS) $(SOAK_TESTS) \
		--filter 'MultiProcessTests.aWriterKilledAtRandomNeverLeavesAPartialEntry'
	WI_SOAK_STORM_LOADS=$(SOAK_STORM_LOADS) $(SOAK_TESTS) --filter 'CancellationStormTests'

## Formats the sources with the toolchain's swift-format.
## Formats every Swift file as .swift-format says (the code's own style: 4 spaces, 120 columns, no import sorting,
## `#if` bodies not indented); `make lint` checks it without writing and fails on any difference (CI runs it first).
## Tests/DocumentationTests is left as written: its regions equal the documents' code blocks character for character.
FORMAT_PATHS = Package.swift Sources Tests Examples Benchmarks/Sources
format:
	$(SWIFT) format --in-place --recursive $(FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive $(FORMAT_PATHS)

clean:
	rm -rf .build "$(DEMO_OUT)"
