import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// `wi fetch URL|PATH... [--thumbnail N] [--resize WxH] [--srgb] [--format F] [--quality Q] [--out DIR]
/// [--cache-dir DIR] [--first-frame] [--no-cache] [--refresh] [--concurrency N] [--json]`: the full pipeline from a shell.
struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Load images through the full pipeline: caches, loader, decoder, transformers.",
        discussion: """
            Loads every URL (http, https, file, data) or file path, --concurrency at a time (at most six of them \
            downloading), through the memory and disk caches (disk cache in --cache-dir), and prints a table, or \
            one JSON object per URL with --json:
            {"url","cache_type":"none|memory|disk","width","height","frames","bytes","ms","error"}.
            A second run finds the images in the disk cache. With --refresh, a cached image is revalidated with \
            the validators stored with it (If-None-Match, If-Modified-Since) before the line is printed, which \
            then has "revalidated": true when the server answered 304 Not Modified (cache_type stays "disk" or \
            "memory"), false when it sent new bytes (cache_type "none", the cache now holds them) or nothing was \
            cached. Exit code 0 when all loaded, 1 when any failed.

            Example:
              wi fetch https://example.com/cat.jpg photo.png --thumbnail 256 --out thumbs/ --json
            """
    )

    @Argument(help: "URLs or file paths.") var targets: [String]
    @Option(help: "Decode to fit an N x N box (the codec's reduced decode where it has one).") var thumbnail: Int?
    @Option(help: ArgumentHelp("Resize to exactly W x H (aspect fill, centre crop).", valueName: "WxH")) var resize:
        String?
    @Option(help: "Write --out files in this format: png, jpeg, webp, heic, avif, gif.") var format: String?
    @Option(help: "Quality from 0 to 1 when encoding.") var quality: Double = 0.9
    @Option(help: "Write each image to this folder.") var out: String?
    @Option(name: .customLong("cache-dir"), help: "The disk cache folder (default $XDG_CACHE_HOME/wi or ~/.cache/wi).")
    var cacheDirectory: String?
    @Flag(name: .customLong("no-cache"), help: "Neither read nor write the caches.") var noCache = false
    @Flag(name: .customLong("first-frame"), help: "Keep only the first frame of animations.") var firstFrame = false
    @Flag(help: .init(WICommandSetup.srgbHelp)) var srgb = false
    @Flag(help: "Revalidate cached images with the server (conditional requests) before answering.") var refresh = false
    @Flag(help: "Print one JSON object per URL.") var json = false
    @Option(help: "Loads at once, from download to written output (default 24).") var concurrency = Fetch
        .defaultConcurrency

    /// Loads at once by default. Six download at a time (the loader's limit); the others decode, transform, store
    /// and write, so that the cores keep working while some loads wait on the network or on file creation. With
    /// six, as before, 8-15% of two cores' time was idle on the 300 corpus images (`/proc/stat` around the run);
    /// with 24, 4-5%, and the run took 0.60 s instead of 0.65 s (medians of 6), peak RSS 161-175 MB either way:
    /// a load holds full-size pixels only while the two decoding threads work on it.
    static let defaultConcurrency = 24

    func validate() throws {
        try WICommandSetup.checkThumbnail(thumbnail)
        if let resize {
            guard let size = WICommandSetup.parseSize(resize) else {
                throw ValidationError("--resize wants WxH, e.g. 320x240")
            }
            try WICommandSetup.checkOption("--resize") { () throws(ImageError) in
                _ = try WICommandSetup.resizeTransformer(size)
            }
        }
        if let format, ImageFormat.named(format) == nil { throw ValidationError("unknown --format '\(format)'") }
        try WICommandSetup.checkQuality(quality)
        for target in targets where commandLineURL(target) == nil {
            throw ValidationError("not a URL or path: \(target)")
        }
        if refresh && noCache { throw ValidationError("--refresh revalidates the cache; it cannot go with --no-cache") }
        guard (1...1024).contains(concurrency) else {
            throw ValidationError("--concurrency must be in 1...1024, got \(concurrency)")
        }
    }

    func run() async throws {
        let setup: WICommandSetup
        do {
            setup = try WICommandSetup(cacheDirectory: cacheDirectory, useDiskCache: !noCache)
        } catch {
            writeToStandardError("wi fetch: \(describe(error))\n")
            throw ExitCode(1)
        }
        var context = ImageContext()
        if let thumbnail { context[.thumbnailPixelSize] = PixelSize(width: thumbnail, height: thumbnail) }
        if srgb {
            var decode = DecodeOptions()
            decode.targetColorSpace = .sRGB
            context[.decodeOptions] = decode
        }
        if let resize, let size = WICommandSetup.parseSize(resize) {
            context[.imageTransformer] = try WICommandSetup.resizeTransformer(size)
        }
        var options: ImageOptions = [.queryMemoryData, .waitStoreCache]
        if noCache { options.formUnion([.fromLoaderOnly, .avoidStoreCache]) }
        if firstFrame { options.insert(.decodeFirstFrameOnly) }
        // With .waitStoreCache, .refreshCached returns after the revalidation, with its outcome.
        if refresh { options.insert(.refreshCached) }
        if let out { try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true) }

        let urls = targets.map { commandLineURL($0)! }
        let output = out.map {
            FetchOutput(
                folder: $0, format: format.flatMap(ImageFormat.named), quality: quality,
                transformed: thumbnail != nil || resize != nil || srgb, coders: setup.coders)
        }
        if let output, output.transformed, !noCache { context[.cacheSerializer] = output.serializer }
        let (manager, context2, options2, targets2, refresh2) = (setup.manager, context, options, targets, refresh)
        let concurrency = concurrency
        // Each output is written as its load finishes, on a pool of its own (encoding is CPU work, which after the
        // last load would run on one thread), and only a load's report is kept, not its image.
        let writers = WorkerPool.cpu(name: "wi.out")
        defer { writers.shutdown() }
        let reports = await withTaskGroup(of: (Int, FetchReport).self) { group in
            var next = 0
            var collected: [(Int, FetchReport)] = []
            func start() {
                guard next < urls.count else { return }
                let (index, url) = (next, urls[next])
                next += 1
                group.addTask {
                    let started = ContinuousClock.now
                    let result: Result<ImageResult, ImageError>
                    do throws(ImageError) {
                        result = .success(try await manager.loadImage(with: url, options: options2, context: context2))
                    } catch {
                        result = .failure(error)
                    }
                    var report = FetchReport(
                        url: targets2[index], result: result,
                        milliseconds: WICommandSetup.milliseconds(ContinuousClock.now - started),
                        reportsRevalidation: refresh2)
                    if case .success(let value) = result, let output {
                        if let failure = await writers.run({ output.write(value, named: url, index: index) }) {
                            report.error = failure
                        }
                    }
                    return (index, report)
                }
            }
            for _ in 0..<min(concurrency, urls.count) { start() }
            for await item in group {
                collected.append(item)
                start()
            }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
        var failed = false
        var rows: [[String]] = []
        for (index, report) in reports.enumerated() {
            if let error = report.error {
                failed = true
                writeToStandardError("wi fetch: \(targets[index]): \(error)\n")
            }
            if json { print(report.jsonLine) } else { rows.append(report.tableRow) }
        }
        if !json { print(FetchReport.table(rows)) }
        if failed { throw ExitCode(1) }
    }
}
