// swift-tools-version: 6.0
// wi-before-after: the rows `Benchmarks/before-after` runs on two checkouts of WebImage (this one and an older
// commit, e.g. the one before the telemetry work) in the same run, interleaved: the manager's memory hit (async and
// callback forms), a load + decode through the manager, and plain decodes. Only the core, the memory cache, the
// curl loader and the PNG and JPEG coders are built, so that building both sides stays cheap.
import PackageDescription

let package = Package(
    name: "WebImageBeforeAfter",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "WebImage", path: "../..")],
    targets: [
        .executableTarget(
            name: "wi-before-after",
            dependencies: [
                .product(name: "WICore", package: "WebImage"), .product(name: "WICacheMemory", package: "WebImage"),
                .product(name: "WILoaderCurl", package: "WebImage"), .product(name: "WICoderPNG", package: "WebImage"),
                .product(name: "WICoderJPEG", package: "WebImage"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
