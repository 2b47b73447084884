# WebImage for Swift on Linux. `make test` is what CI runs (.ci/run); `make demo` is the README's main job.
SWIFT ?= swift
DEMO_OUT ?= demo-output

.PHONY: deps build test demo format clean

deps:
	@Scripts/install-deps

build: deps
	$(SWIFT) build

## Builds everything with zero warnings allowed in our code, then runs every test target.
test: deps
	@Scripts/build-checked
	$(SWIFT) test --skip-build

## Builds `wi` in release mode and runs it over the sample images in Examples/Assets.
demo: deps
	$(SWIFT) build -c release --product wi
	@Scripts/demo "$$($(SWIFT) build -c release --show-bin-path)/wi" "$(DEMO_OUT)"

## Formats the sources with the toolchain's swift-format.
format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests Examples

clean:
	rm -rf .build "$(DEMO_OUT)"
