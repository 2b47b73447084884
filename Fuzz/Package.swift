// swift-tools-version: 6.0
// libFuzzer targets for WebImage's parsers and decoders. A package of its own so that `make test` never builds it
// with sanitizer flags; `make fuzz` (Fuzz/run) builds it with `-sanitize=fuzzer,address` and runs every target.
import PackageDescription

/// One fuzz target: an executable in Sources/<name> that exports `LLVMFuzzerTestOneInput` (libFuzzer brings main).
func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "WebImage") }
    )
}

let package = Package(
    name: "WebImageFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, so that the product references do not depend on the checkout's folder name.
        .package(name: "WebImage", path: ".."),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "WICore", package: "WebImage")]),
        fuzzTarget("fuzz-png", ["WICoderPNG"]),
        fuzzTarget("fuzz-png-incremental", ["WICoderPNG"]),
        fuzzTarget("fuzz-apng-chunks", ["WICoderPNG"]),
        fuzzTarget("fuzz-jpeg", ["WICoderJPEG"]),
        fuzzTarget("fuzz-jpeg-incremental", ["WICoderJPEG"]),
        fuzzTarget("fuzz-webp", ["WICoderWebP"]),
        fuzzTarget("fuzz-webp-incremental", ["WICoderWebP"]),
        fuzzTarget("fuzz-gif", ["WICoderGIF"]),
        fuzzTarget("fuzz-gif-incremental", ["WICoderGIF"]),
        fuzzTarget("fuzz-heic", ["WICoderHEIC"]),
        fuzzTarget("fuzz-svg", ["WICoderSVG"]),
        fuzzTarget("fuzz-pdf", ["WICoderPDF"]),
        fuzzTarget("fuzz-bmp", ["WICoderBMP", "WICoderPNG"]),
        fuzzTarget("fuzz-jxl", ["WICoderJXL"]),
        fuzzTarget("fuzz-jxl-incremental", ["WICoderJXL"]),
        fuzzTarget("fuzz-tiff", ["WICoderTIFF"]),
        fuzzTarget("fuzz-icc", ["WIColor"]),
        fuzzTarget("fuzz-color-decode", ["WIColor", "WICoderJPEG", "WICoderPNG"]),
        fuzzTarget("fuzz-sniffer", []),
        fuzzTarget("fuzz-exif", ["WICoderSupport"]),
        fuzzTarget("fuzz-data-url", ["WILoaderCurl"]),
    ],
    swiftLanguageModes: [.v6]
)
