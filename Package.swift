// swift-tools-version: 6.1
// WebImage for Swift on Linux: an image loading framework built from small plugin targets.
// See docs/ARCHITECTURE.md for the target graph and README.md for how to use it.
import PackageDescription

/// A `.systemLibrary` target for a Debian -dev package, with the modulemap in Sources/<name>.
func systemLibrary(_ name: String, pkgConfig: String?, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Sources/System/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "WebImage",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WICore", targets: ["WICore"]),
        .library(name: "WICoderSupport", targets: ["WICoderSupport"]),
        .library(name: "WICacheMemory", targets: ["WICacheMemory"]),
        .library(name: "WICacheDisk", targets: ["WICacheDisk"]),
        .library(name: "WILoaderCurl", targets: ["WILoaderCurl"]),
        .library(name: "WICoderPNG", targets: ["WICoderPNG"]),
        .library(name: "WICoderJPEG", targets: ["WICoderJPEG"]),
        .library(name: "WICoderWebP", targets: ["WICoderWebP"]),
        .library(name: "WICoderHEIC", targets: ["WICoderHEIC"]),
        .library(name: "WICoderGIF", targets: ["WICoderGIF"]),
        .library(name: "WICoderSVG", targets: ["WICoderSVG"]),
        .library(name: "WICoderPDF", targets: ["WICoderPDF"]),
        .library(name: "WICoderBMP", targets: ["WICoderBMP"]),
        .library(name: "WICoderJXL", targets: ["WICoderJXL"]),
        .library(name: "WICoderTIFF", targets: ["WICoderTIFF"]),
        .library(name: "WIColor", targets: ["WIColor"]),
        .library(name: "WITransform", targets: ["WITransform"]),
        .library(name: "WICacheRedis", targets: ["WICacheRedis"]),
        .library(name: "WebImage", targets: ["WebImage"]),
        .library(name: "WITestSupport", targets: ["WITestSupport"]),
        .library(name: "WIServiceLifecycle", targets: ["WIServiceLifecycle"]),
        .library(name: "WIIsolation", targets: ["WIIsolation"]),
        .library(name: "WIServeCore", targets: ["WIServeCore"]),
        .library(name: "WIServe", targets: ["WIServe"]),
        .library(name: "WIVapor", targets: ["WIVapor"]),
        .executable(name: "wi", targets: ["wi"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation` (DocC catalog in Sources/WICore/WICore.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Only the loader's tests use SwiftNIO (the in-process HTTP test server, WITestServer).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Telemetry (swift-log, swift-metrics, swift-distributed-tracing): WICore and its plugins speak the server
        // ecosystem's APIs; with no backend bootstrapped they cost nothing measurable.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Only WIServiceLifecycle depends on it.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Only WIServe (`wi serve`) and its tests depend on these two: the HTTP server and the /metrics backend.
        // No default traits: without FullFoundation, Hummingbird imports FoundationEssentials only, so `wi` still
        // links no libFoundation (tools 6.1 for `traits:`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Only WIVapor, its tests and the Vapor example depend on it: apps that do not mount the service in a Vapor
        // app never build it.
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
    ],
    targets: [
        // System libraries (Debian packages; `Scripts/install-deps` installs them).
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        // The PNG coder's image data: inflate of whole IDAT streams and deflate of encoded rows (CPNGShim).
        systemLibrary("CDeflate", pkgConfig: "libdeflate", apt: ["libdeflate-dev"]),
        systemLibrary("CJPEG", pkgConfig: "libturbojpeg", apt: ["libjpeg-dev", "libturbojpeg0-dev"]),
        systemLibrary("CWebP", pkgConfig: "libwebpmux", apt: ["libwebp-dev"]),
        systemLibrary("CHeif", pkgConfig: "libheif", apt: ["libheif-dev"]),
        systemLibrary("CGIF", pkgConfig: "libgif", apt: ["libgif-dev"]),
        // libjxl.pc adds -DHWY_SHARED_DEFINE (for C++ users of highway), which SwiftPM prohibits; the C headers
        // need no flag and sit in the default include path, so `CJXL` does without pkg-config too.
        systemLibrary("CJXL", pkgConfig: nil, apt: ["libjxl-dev"]),
        systemLibrary("CTIFF", pkgConfig: "libtiff-4", apt: ["libtiff-dev"]),
        systemLibrary("CLCMS", pkgConfig: "lcms2", apt: ["liblcms2-dev"]),
        systemLibrary("CPixman", pkgConfig: "pixman-1", apt: ["libpixman-1-dev"]),
        systemLibrary("CCairo", pkgConfig: "cairo", apt: ["libcairo2-dev"]),
        systemLibrary("CRsvg", pkgConfig: "librsvg-2.0", apt: ["librsvg2-dev"]),
        systemLibrary("CPoppler", pkgConfig: "poppler-glib", apt: ["libpoppler-glib-dev"]),
        // hiredis.pc adds -D_FILE_OFFSET_BITS=64, which SwiftPM prohibits (a warning on every build); its header sits
        // in the default include path, so the target does without pkg-config.
        systemLibrary("CHiredis", pkgConfig: nil, apt: ["libhiredis-dev"]),
        // <sys/xattr.h>, part of libc: the disk cache's extended data.
        systemLibrary("CXattr", pkgConfig: nil, apt: ["libc6-dev"]),

        // C shims: libpng and libjpeg report errors by longjmp, which Swift cannot host.
        .target(name: "CPNGShim", dependencies: ["CPNG", "CDeflate"], path: "Sources/System/CPNGShim"),
        .target(name: "CJPEGShim", dependencies: ["CJPEG"], path: "Sources/System/CJPEGShim"),
        // libtiff's tag calls are variadic and its message handlers take a va_list, which Swift cannot host.
        .target(name: "CTIFFShim", dependencies: ["CTIFF"], path: "Sources/System/CTIFFShim"),
        // Tables of the heavy libraries' functions, bound with dlsym when their format is first met (WICore's
        // `SharedLibrary`; docs/decisions/0025-codec-libraries-opened-on-first-use.md): a process that meets none
        // of these formats loads none of them, once linked with --as-needed (`make demo`, the README's install line).
        .target(name: "CCairoShim", dependencies: ["CCairo"], path: "Sources/System/CCairoShim"),
        .target(name: "CRsvgShim", dependencies: ["CRsvg"], path: "Sources/System/CRsvgShim"),
        .target(name: "CPopplerShim", dependencies: ["CPoppler"], path: "Sources/System/CPopplerShim"),
        .target(name: "CHeifShim", dependencies: ["CHeif"], path: "Sources/System/CHeifShim"),
        .target(name: "CJXLShim", dependencies: ["CJXL"], path: "Sources/System/CJXLShim"),
        // Little CMS is opened by the first colour conversion to sRGB: apps that keep files' colours never load it.
        .target(name: "CLCMSShim", dependencies: ["CLCMS"], path: "Sources/System/CLCMSShim"),
        // libcurl is opened by a curl loader's first http(s) load: `wi info`, `wi convert` and apps that never load a
        // URL skip its 29 shared objects.
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/System/CCurlShim"),

        // The core: contracts, image model, managers, pipeline. No C, no I/O policy.
        .target(
            name: "WICore",
            dependencies: [
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // What coder authors use beyond `ImageCoder`: EXIF and XMP readers, the animation frame compositor and the
        // composited animation decoder. Apps that only load images never import it (decision 0083).
        .target(name: "WICoderSupport", dependencies: ["WICore"]),
        // An ImageManager as a swift-service-lifecycle `Service` (shut down on graceful shutdown).
        .target(
            name: "WIServiceLifecycle",
            dependencies: ["WICore", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]
        ),

        // MD5, SHA-1, SHA-256, HMAC and base64url in Swift, for the disk cache's file names, thumbor's signatures,
        // the service's ETags and the tests' reference digests (not a product: `package` API for our targets).
        .target(name: "WIHash"),

        // Plugins.
        .target(name: "WICacheMemory", dependencies: ["WICore"]),
        .target(
            name: "WICacheDisk",
            dependencies: ["WICore", "WIHash", "CXattr", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "WILoaderCurl",
            dependencies: [
                "WICore", "CCurl", "CCurlShim", .product(name: "Logging", package: "swift-log"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        .target(name: "WICoderPNG", dependencies: ["WICore", "WICoderSupport", "CPNGShim"]),
        .target(name: "WICoderJPEG", dependencies: ["WICore", "WICoderSupport", "CJPEG", "CJPEGShim"]),
        .target(name: "WICoderWebP", dependencies: ["WICore", "WICoderSupport", "CWebP"]),
        .target(name: "WICoderHEIC", dependencies: ["WICore", "WICoderSupport", "CHeifShim"]),
        .target(name: "WICoderGIF", dependencies: ["WICore", "WICoderSupport", "CGIF"]),
        // The vector coders' shared cairo canvas (not a product: an implementation detail of the two).
        .target(name: "WICairo", dependencies: ["WICore", "CCairoShim"]),
        .target(name: "WICoderSVG", dependencies: ["WICore", "WICairo", "CRsvgShim"]),
        .target(name: "WICoderPDF", dependencies: ["WICore", "WICairo", "CPopplerShim"]),
        // BMP, ICO and CUR in Swift: no C library (Debian has no fuzzed decoder for them).
        .target(name: "WICoderBMP", dependencies: ["WICore"]),
        .target(name: "WICoderJXL", dependencies: ["WICore", "CJXLShim"]),
        .target(name: "WICoderTIFF", dependencies: ["WICore", "CTIFFShim"]),
        // Colour conversion to sRGB (`DecodeOptions.targetColorSpace`) on Little CMS 2.
        .target(name: "WIColor", dependencies: ["WICore", "CLCMSShim"]),
        .target(name: "WITransform", dependencies: ["WICore", "CPixman"]),
        .target(
            name: "WICacheRedis", dependencies: ["WICore", "CHiredis", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "WebImage",
            dependencies: [
                "WICore", "WICoderSupport", "WICacheMemory", "WICacheDisk", "WILoaderCurl", "WICoderPNG", "WICoderJPEG",
                "WICoderWebP", "WICoderHEIC", "WICoderGIF", "WICoderSVG", "WICoderPDF", "WICoderBMP", "WICoderJXL",
                "WICoderTIFF", "WITransform", "WIColor",
                "WICacheRedis",
            ]
        ),
        // glibc's malloc.h (mallopt), for `wi serve`.
        .systemLibrary(name: "CMalloc", path: "Sources/System/CMalloc"),
        // Decoding in sandboxed worker processes (seccomp through libseccomp, opened by the worker only).
        .target(name: "CSandbox", path: "Sources/System/CSandbox"),
        .target(name: "WIIsolation", dependencies: ["WICore", "CSandbox"]),
        // The image service without HTTP: thumbor's URL grammar, the plan, the request flow (WIServe, WIVapor and
        // an app's own server put it behind HTTP).
        .target(
            name: "WIServeCore",
            dependencies: [
                "WebImage", "WIHash", "WIIsolation",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // `wi serve`: a thumbor-compatible image service on Hummingbird over the WebImage pipeline.
        .target(
            name: "WIServe",
            dependencies: [
                "WebImage", "WIServeCore", "WIServiceLifecycle",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        // The service mounted in an app's own Vapor server (WIServeCore without Hummingbird).
        .target(name: "WIVapor", dependencies: ["WIServeCore", .product(name: "Vapor", package: "vapor")]),
        .target(name: "WITestSupport", dependencies: ["WICore", "WIHash"]),
        // An in-process HTTP/1.1 server and an nginx launcher for the loader's tests (SwiftNIO); only they, the
        // HTTP caching tests (WebImageTests, wiTests) and wi-fault-probe link it.
        .target(
            name: "WITestServer",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),

        // The `wi` command.
        .executableTarget(
            name: "wi",
            dependencies: [
                "WebImage", "WIServe", "WIServeCore", "WIIsolation", "CMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/wi"
        ),

        // A helper the disk cache tests start as separate processes (two writers, a writer killed with SIGKILL).
        .executableTarget(name: "wi-disk-stress", dependencies: ["WICacheDisk"], path: "Tests/DiskStress"),
        // A helper the loader's fault test starts: every fault in a process of its own, counting all its descriptors.
        .executableTarget(
            name: "wi-fault-probe", dependencies: ["WICore", "WILoaderCurl", "WITestServer"], path: "Tests/FaultProbe"
        ),
        // A decode worker with test-only coders that crash, hang, allocate without bound or make forbidden system
        // calls, for the isolation tests.
        .executableTarget(
            name: "wi-hostile-worker", dependencies: ["WebImage", "WIIsolation"], path: "Tests/HostileWorker"),
        // A helper the Redis tests start as three processes loading the same URLs through the single-flight loader.
        .executableTarget(name: "wi-redis-fleet", dependencies: ["WICacheRedis"], path: "Tests/RedisFleet"),

        .executableTarget(name: "quickstart", dependencies: ["WebImage"], path: "Examples/QuickStart"),
        // Thumbnails inside an app's own server (Examples/*/README.md), with the settings both read from their
        // environment in one place; ExampleAppsTests runs both.
        .target(name: "ExampleSettings", dependencies: ["WebImage", "WIServeCore"], path: "Examples/ExampleSettings"),
        .executableTarget(
            name: "hummingbird-app",
            dependencies: [
                "ExampleSettings", "WebImage", "WIServe", .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Examples/HummingbirdApp", exclude: ["README.md"]
        ),
        .executableTarget(
            name: "vapor-app",
            dependencies: ["ExampleSettings", "WebImage", "WIVapor", .product(name: "Vapor", package: "vapor")],
            path: "Examples/VaporApp", exclude: ["README.md"]
        ),

        // Examples: extending the framework from outside (a coder and a loader of an app's own).
        .target(name: "CustomPlugins", dependencies: ["WICore"], path: "Examples/CustomPlugins"),

        // Tests: one target per source target.
        .testTarget(
            name: "WICoreTests",
            dependencies: [
                "WICore", "WITestSupport", .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "WIServiceLifecycleTests",
            dependencies: [
                "WIServiceLifecycle", "WITestSupport",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "WIHashTests", dependencies: ["WIHash"]),
        .testTarget(name: "WICoderSupportTests", dependencies: ["WICoderSupport", "WITestSupport"]),
        .testTarget(name: "WICacheDiskTests", dependencies: ["WICacheDisk", "WITestSupport", "wi-disk-stress"]),
        .testTarget(name: "WICacheMemoryTests", dependencies: ["WICacheMemory", "WITestSupport"]),
        .testTarget(
            name: "WILoaderCurlTests",
            dependencies: [
                "WILoaderCurl", "WITestSupport", "WITestServer", "wi-fault-probe",
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(name: "WICoderPNGTests", dependencies: ["WICoderPNG", "WICoderSupport", "WITestSupport"]),
        .testTarget(name: "WICoderJPEGTests", dependencies: ["WICoderJPEG", "WICoderSupport", "WITestSupport"]),
        .testTarget(name: "WICoderWebPTests", dependencies: ["WICoderWebP", "WICoderSupport", "WITestSupport"]),
        .testTarget(
            name: "WICoderHEICTests", dependencies: ["WICoderHEIC", "WICoderPNG", "WICoderSupport", "WITestSupport"]),
        .testTarget(name: "WICoderGIFTests", dependencies: ["WICoderGIF", "WITestSupport"]),
        .testTarget(
            name: "WICoderSVGTests", dependencies: ["WICoderSVG", "WICoderPNG", "WITestSupport", "WITestServer"]),
        .testTarget(name: "WICoderPDFTests", dependencies: ["WICoderPDF", "WITestSupport"]),
        .testTarget(name: "WICoderBMPTests", dependencies: ["WICoderBMP", "WICoderPNG", "WITestSupport"]),
        .testTarget(name: "WICoderJXLTests", dependencies: ["WICoderJXL", "WICoderPNG", "WITestSupport"]),
        .testTarget(name: "WICoderTIFFTests", dependencies: ["WICoderTIFF", "WICoderPNG", "WITestSupport"]),
        .testTarget(
            name: "WIColorTests",
            dependencies: [
                "WIColor", "WICoderJPEG", "WICoderPNG", "WICoderTIFF", "WICoderWebP", "WICoderHEIC", "WICoderJXL",
                "WITestSupport",
            ]),
        .testTarget(name: "WITransformTests", dependencies: ["WITransform", "WITestSupport"]),
        .testTarget(
            name: "WICacheRedisTests", dependencies: ["WICacheRedis", "WICacheDisk", "WITestSupport", "wi-redis-fleet"]
        ),
        .testTarget(name: "WebImageTests", dependencies: ["WebImage", "WITestSupport", "WITestServer"]),
        .testTarget(name: "WITestSupportTests", dependencies: ["WITestSupport"]),
        .testTarget(
            name: "WIServeTests",
            dependencies: [
                "WIServe", "WIServeCore", "WIHash", "WITestSupport", "WITestServer", "wi-hostile-worker",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "WIVaporTests",
            dependencies: [
                "WIVapor", "WIServeCore", "WebImage", "WITestSupport", "WITestServer",
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
        .testTarget(
            name: "WIIsolationTests", dependencies: ["WIIsolation", "WebImage", "WITestSupport", "wi-hostile-worker"]
        ),
        .testTarget(
            name: "ExampleAppsTests",
            dependencies: ["WebImage", "WITestSupport", "WITestServer", "hummingbird-app", "vapor-app"]
        ),
        .testTarget(name: "CustomPluginsTests", dependencies: ["CustomPlugins", "WITestSupport"]),
        // Every Swift block of the README and the DocC catalogs, compiled (and the quick start run).
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "WebImage", "WIServe", "CustomPlugins", "WITestSupport", "WITestServer", "quickstart",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "wiTests", dependencies: ["WITestSupport", "WICacheDisk", "WICoderPNG", "WITestServer"],
            path: "Tests/wiTests"),
    ],
    swiftLanguageModes: [.v6]
)

// Shared settings, as the Swift server packages set them: every existential spelled `any` (the C shims and system
// modules have no Swift to set).
for target in package.targets
where target.type != .system && !(target.name.first == "C" && target.name.dropFirst().first?.isUppercase == true) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
