// swift-tools-version: 6.1
// The WebImage benchmarks: package-benchmark targets (one per area, each reporting wall time, CPU, allocations and
// peak memory) and `wi-bench`, the release executable `Benchmarks/compare` interleaves with the reference programs.
// Run from this folder: `swift package benchmark` (all) or `swift package benchmark --target Decode`.
import PackageDescription

let benchmark: Target.Dependency = .product(name: "Benchmark", package: "benchmark")
let support: Target.Dependency = "BenchSupport"

/// One package-benchmark target per area, in Benchmarks/<name>.
func area(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [benchmark, support],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "WebImageBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The project itself. Named, so that the product references below do not depend on the checkout's folder
        // name (a path dependency's identity is otherwise the last path component: "main", "wt-bench", ...).
        .package(name: "WebImage", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(name: "BenchSupport", dependencies: [.product(name: "WebImage", package: "WebImage"),
                                                     .product(name: "WITestSupport", package: "WebImage")]),
        .executableTarget(name: "wi-bench", dependencies: [support]),
        area("Decode"),
        area("Thumbnail"),
        area("DiskCache"),
        area("Transform"),
        area("MemoryCache"),
        area("Loader"),
        area("Pipeline"),
        area("Redis"),
    ],
    swiftLanguageModes: [.v6]
)
