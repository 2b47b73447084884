import Foundation

/// Where the benchmarks find their inputs: the project's fixtures and the generated data under
/// `Benchmarks/.build-data` (made by `Benchmarks/compare --prepare`).
public enum BenchPaths {
    /// The project root: `$WI_BENCH_ROOT`, else two folders above this package.
    public static let root: String = {
        if let root = ProcessInfo.processInfo.environment["WI_BENCH_ROOT"], !root.isEmpty { return root }
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // BenchPaths.swift, BenchSupport, Sources, Benchmarks
        return url.path
    }()

    /// The project's test fixtures.
    public static var fixtures: String { root + "/Tests/Fixtures" }

    /// Generated inputs (the large photo-like JPEGs); ignored by git.
    public static var data: String { root + "/Benchmarks/.build-data" }

    /// The 4000x3000 q90 photo-like JPEG the thumbnail workloads use.
    public static var photo: String { data + "/photo-4000x3000.jpg" }

    /// A 1000x1000 RGBA PNG crop of the photo (the resize-up and blur input; `Reference/make_cpu_inputs.py`).
    public static var photo1000: String { data + "/photo-1000x1000.png" }

    /// A 2000x1500 lossy WebP of the photo and a 1000x750 lossless WebP drawing (`Reference/make_cpu_inputs.py`).
    public static var webpPhoto: String { data + "/photo-2000x1500.webp" }
    public static var webpGraphic: String { data + "/graphic-1000x750.webp" }

    /// The same 100 frames of 480x360 as a GIF and as an APNG (`Reference/make_cpu_inputs.py`).
    public static var animatedGIF: String { data + "/anim-100.gif" }
    public static var animatedPNG: String { data + "/anim-100.png" }

    /// Reads a file, stopping the process with a message that says how to make it when it is missing.
    public static func read(_ path: String) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("missing \(path): run `Benchmarks/compare --prepare` first\n".utf8))
            exit(2)
        }
        return data
    }
}
