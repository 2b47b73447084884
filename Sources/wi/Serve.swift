import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import WebImage
import WIServe
import CMalloc
#if canImport(Glibc)
import Glibc
#endif

/// `wi serve`: the thumbor-compatible image service (WIServe) on Hummingbird, until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve thumbor-style image URLs: fetch, resize, convert and cache (SIGTERM ends it gracefully).")

    @Option(help: "Address to listen on.") var bind = "127.0.0.1"
    @Option(help: "Port to listen on (0: a free one).") var port = 8888
    @Option(help: "thumbor security key: URLs must carry its HMAC-SHA1 signature (repeatable: any verifies).") var key:
        [String] = []
    @Flag(help: "Accept /unsafe/ URLs (no signature).") var allowUnsafe = false
    @Option(help: "A host whose URLs may reach loopback and private addresses (repeatable).") var allowHost: [String] =
        []
    @Option(
        help:
            "A source the service may fetch: a URL prefix, or a host where * stands for any characters (repeatable; none: any public source)."
    )
    var allowSource: [String] = []
    @Option(help: "An HTTP proxy for origin fetches (http://host:port); each source's address is still checked.")
    var proxy: String?
    @Option(help: "A folder whose files are sources: an image path without http:// or https:// is a file under it.")
    var fileRoot: String?
    @Option(help: "Disk cache folder (default ~/.cache/wi-serve).") var cacheDir: String?
    @Flag(help: "No memory or disk cache: every request does the full work.") var noCache = false
    @Option(help: "Redis URL (redis://host[:port][/db]): shared tier and fleet-wide single flight.") var redis: String?
    @Option(help: "Most pixels of a source or result (width x height x frames).") var maxPixels = 50_000_000
    @Option(help: "Largest source body in bytes.") var maxSourceBytes: Int64 = 32 << 20
    @Option(help: "Most frames or pages of a source; larger animations are refused (400; 413 with --strict).")
    var maxFrames = 1_000
    @Option(help: "Most filters in one URL; more is a 400.") var maxFilters = 32
    @Flag(
        help:
            "A filter thumbor would skip or clamp is a 400 naming it; a bad signature is 403, a pixel limit 413 (default: thumbor's answers)."
    )
    var strict = false
    @Option(help: "Seconds a failed source or a timed-out request is answered again from memory (0: off).")
    var failureTtl: Double = 10
    @Option(help: "Requests working at once (default: the number of cores).") var concurrency = ProcessInfo.processInfo
        .activeProcessorCount
    @Option(help: "Requests waiting for a slot; beyond that, 503 with Retry-After.") var queue = 16
    @Option(help: "Seconds a request may take from its arrival, the wait for a slot included; then 504.") var timeout:
        Double = 30
    @Option(help: "Seconds a client may take to send a request's head; then the connection is closed.")
    var headerTimeout: Double = 10
    @Option(help: "Seconds a connection may wait for its next request; then it is closed.") var idleTimeout: Double = 10
    @Option(help: "Connections open at once; more wait in the listen backlog.") var maxConnections = 2048
    @Option(help: "Decode in sandboxed worker processes: none, uncancellable (SVG, PDF, HEIC, AVIF) or all.")
    var isolate = ServeConfiguration.Isolation.uncancellable
    @Option(help: "Memory (address space) of each decode worker, in bytes.") var maxRequestMemory = 2 << 30
    @Flag(help: "Answer in WebP when Accept allows it and the URL names no format.") var autoWebp = false
    @Flag(help: "Answer in AVIF when Accept allows it and the URL names no format.") var autoAvif = false
    @Flag(
        help:
            "thumbor's AUTO_JPG: opaque stills in JPEG when Accept names */* or image/jpeg and the URL names no format."
    )
    var autoJpg = false
    @Flag(help: "thumbor's AUTO_PNG: stills in PNG when Accept names image/png and the URL names no format.")
    var autoPng = false
    @Flag(help: "thumbor's AUTO_HEIF: stills in HEIF when Accept names image/heif and the URL names no format.")
    var autoHeif = false
    @Flag(help: "thumbor's AUTO_PNG_TO_JPG: an opaque PNG source in JPEG when the URL names no format.")
    var autoPngToJpg = false
    @Option(help: "thumbor's ACCESS_CONTROL_ALLOW_ORIGIN_HEADER: Access-Control-Allow-Origin of image answers.")
    var accessControlAllowOrigin: String?
    @Flag(help: "thumbor's PROGRESSIVE_JPEG: progressive JPEG answers (thumbor's default; ours is off, for speed).")
    var progressiveJpeg = false
    @Flag(help: "thumbor's ENABLE_ETAGS = False: no ETag on answers, If-None-Match passed over.") var noEtags = false
    @Option(help: "thumbor's MAX_WIDTH: requested widths capped, wider sources shrunk first (0: none).")
    var maxWidth = 0
    @Option(help: "thumbor's MAX_HEIGHT: requested heights capped, taller sources shrunk first (0: none).")
    var maxHeight = 0
    @Option(help: "thumbor's SVG_DPI: the resolution of SVG lengths in inches, points, millimetres.")
    var svgDpi = 150.0
    @Flag(help: "Keep the source's EXIF and XMP in answers (default: stripped; the colour profile stays).")
    var keepMetadata = false
    @Flag(help: "Keep the EXIF Artist and Copyright fields when metadata is stripped.") var keepCopyright = false
    @Option(help: "Encoder quality when the URL has no quality() (thumbor's QUALITY).") var quality = 80
    @Option(help: "WebP answers' quality when the URL has no quality() (default: --quality).") var webpQuality: Int?
    @Option(help: "AVIF answers' quality when the URL has no quality() (default: --quality).") var avifQuality: Int?
    @Option(help: "Cache-Control max-age of answers, in seconds.") var maxAge = 86_400
    @Option(help: "Seconds the origin may take to send a source (within --timeout).") var originTimeout: Double = 10
    @Option(
        help: "How sources follow their origin's HTTP caching: ignore, respect, or stale (served while revalidated).")
    var originCache = OriginCache.stale
    @Option(
        help: "Seconds past its freshness a source is still served while it is revalidated (with --origin-cache stale)."
    )
    var originMaxStale = 86_400
    @Option(help: "Bytes of decoded images kept in memory.") var memoryCacheBytes = 256 << 20
    @Option(help: "Bytes of encoded answers kept in memory.") var variantMemoryBytes = 64 << 20
    @Option(help: "Bytes the disk cache may take (originals 3/4, answers 1/4), trimmed in the background.")
    var cacheSize: Int64 = 10 << 30
    @Option(help: "A configuration file: one name = value per line, names as the flags without dashes.") var config:
        String?
    @Option(
        help:
            "thumbor's configuration file (thumbor.conf): the settings wi serve implements, with thumbor's meaning, below --config and the environment."
    )
    var thumborConfig: String?
    @Flag(help: "Print the effective settings and where each came from, then exit.") var printConfig = false

    /// Where each setting came from (`ServeSettings`, set by `wi` before parsing), by flag name.
    nonisolated(unsafe) static var origins: [String: String] = [:]
    /// The thumbor settings `wi serve` does not implement, one line logged at start (`ServeSettings`, set by `wi`
    /// before parsing, like `origins`).
    nonisolated(unsafe) static var thumborWarning: String?

    /// The configuration the flags describe.
    func serveConfiguration() -> ServeConfiguration {
        var configuration = ServeConfiguration()
        configuration.bind = bind
        configuration.port = port
        configuration.keys = key
        configuration.allowedSources = allowSource
        configuration.allowUnsafe = allowUnsafe
        configuration.allowedHosts = allowHost
        configuration.cacheDirectory = cacheDir
        configuration.fileRoot = fileRoot
        configuration.proxy = proxy
        configuration.useCache = !noCache
        configuration.redisURL = redis
        configuration.maxPixels = maxPixels
        configuration.maxSourceBytes = maxSourceBytes
        configuration.maxFrames = maxFrames
        configuration.maxFilters = maxFilters
        configuration.strict = strict
        configuration.failureTTL = failureTtl
        configuration.concurrency = concurrency
        configuration.queue = queue
        configuration.timeout = timeout
        configuration.headerTimeout = headerTimeout
        configuration.idleTimeout = idleTimeout
        configuration.maxConnections = maxConnections
        configuration.isolation = isolate
        configuration.maxRequestMemory = maxRequestMemory
        if isolate != .none {
            configuration.workerCommand = [Self.executablePath(), "decode-worker", "--svg-dpi", "\(svgDpi)"]
        }
        configuration.autoWebP = autoWebp
        configuration.autoAVIF = autoAvif
        configuration.autoJPG = autoJpg
        configuration.autoPNG = autoPng
        configuration.autoHEIF = autoHeif
        configuration.autoPNGToJPG = autoPngToJpg
        configuration.accessControlAllowOrigin = accessControlAllowOrigin
        configuration.progressiveJPEG = progressiveJpeg
        configuration.etags = !noEtags
        configuration.maxWidth = maxWidth
        configuration.maxHeight = maxHeight
        configuration.svgDPI = svgDpi
        configuration.keepMetadata = keepMetadata
        configuration.keepCopyright = keepCopyright
        configuration.quality = quality
        configuration.webpQuality = webpQuality
        configuration.avifQuality = avifQuality
        configuration.maxAge = maxAge
        configuration.originTimeout = originTimeout
        configuration.originCachePolicy =
            switch originCache {
            case .ignore: .ignore
            case .respect: .respect
            case .stale: .staleWhileRevalidate(maxStale: .seconds(originMaxStale))
            }
        configuration.memoryCacheBytes = memoryCacheBytes
        configuration.variantMemoryBytes = variantMemoryBytes
        configuration.cacheSize = cacheSize
        return configuration
    }

    /// This executable's path (the decode workers are `wi decode-worker`).
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0
            ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : CommandLine.arguments[0]
    }

    func validate() throws {
        try WICommandSetup.checkOption("wi serve") { () throws(ImageError) in try serveConfiguration().validate() }
        if key.isEmpty, !allowUnsafe {
            throw ValidationError("give --key SECRET (signed URLs) or --allow-unsafe (unsigned URLs)")
        }
    }

    /// Every setting's effective value (keys hidden), in the order of `wi serve --help`.
    func effectiveValues() -> [(name: String, value: String)] {
        func list(_ values: [String]) -> String { values.isEmpty ? "(none)" : values.joined(separator: ", ") }
        return [
            ("bind", bind), ("port", "\(port)"),
            ("key", key.isEmpty ? "(none)" : "\(key.count) key(s), not shown"), ("allow-unsafe", "\(allowUnsafe)"),
            ("allow-host", list(allowHost)), ("allow-source", list(allowSource)), ("file-root", fileRoot ?? "(none)"),
            ("proxy", proxy ?? "(none)"),
            ("cache-dir", cacheDir ?? "(default)"),
            ("no-cache", "\(noCache)"), ("redis", redis ?? "(none)"), ("max-pixels", "\(maxPixels)"),
            ("max-source-bytes", "\(maxSourceBytes)"), ("max-frames", "\(maxFrames)"), ("max-filters", "\(maxFilters)"),
            ("strict", "\(strict)"),
            ("failure-ttl", "\(failureTtl)"), ("concurrency", "\(concurrency)"), ("queue", "\(queue)"),
            ("timeout", "\(timeout)"), ("header-timeout", "\(headerTimeout)"), ("idle-timeout", "\(idleTimeout)"),
            ("max-connections", "\(maxConnections)"), ("isolate", isolate.rawValue),
            ("max-request-memory", "\(maxRequestMemory)"), ("auto-webp", "\(autoWebp)"), ("auto-avif", "\(autoAvif)"),
            ("auto-jpg", "\(autoJpg)"), ("auto-png", "\(autoPng)"), ("auto-heif", "\(autoHeif)"),
            ("auto-png-to-jpg", "\(autoPngToJpg)"),
            ("access-control-allow-origin", accessControlAllowOrigin ?? "(none)"),
            ("progressive-jpeg", "\(progressiveJpeg)"), ("no-etags", "\(noEtags)"), ("max-width", "\(maxWidth)"),
            ("max-height", "\(maxHeight)"), ("svg-dpi", "\(svgDpi)"),
            ("keep-metadata", "\(keepMetadata)"), ("keep-copyright", "\(keepCopyright)"),
            ("quality", "\(quality)"), ("webp-quality", webpQuality.map(String.init) ?? "(--quality)"),
            ("avif-quality", avifQuality.map(String.init) ?? "(--quality)"), ("max-age", "\(maxAge)"),
            ("origin-timeout", "\(originTimeout)"), ("origin-cache", originCache.rawValue),
            ("origin-max-stale", "\(originMaxStale)"), ("memory-cache-bytes", "\(memoryCacheBytes)"),
            ("variant-memory-bytes", "\(variantMemoryBytes)"), ("cache-size", "\(cacheSize)"),
            ("config", config ?? "(none)"), ("thumbor-config", thumborConfig ?? "(none)"),
            ("print-config", "\(printConfig)"),
        ]
    }

    func run() async throws {
        if printConfig {
            if let warning = Self.thumborWarning { writeToStandardError("wi serve: warning: \(warning)\n") }
            // Every option ServeSettings finds, so a flag missing from effectiveValues() shows (and a test fails).
            let values = Dictionary(effectiveValues(), uniquingKeysWith: { first, _ in first })
            for setting in ServeSettings.settings {
                let value = values[setting.name] ?? "(missing from effectiveValues)"
                writeToStandardOutput("\(setting.name) = \(value)    # \(Self.origins[setting.name] ?? "default")\n")
            }
            return
        }
        // Local time from /etc/localtime, read once: with TZ unset, glibc's tzset (which strftime calls for each
        // access-log line's timestamp) stats the file every time, 2% of a cached answer's time.
        setenv("TZ", ":/etc/localtime", 0)
        // The access log goes to standard output at info unless -v asked for more (trace to standard error).
        var logger = WI.logger
        if logger.handler is SwiftLogNoOpLogHandler {
            logger = Logger(label: "wi.serve") { label in StreamLogHandler.standardOutput(label: label) }
            logger.logLevel = .info
        }
        if let warning = Self.thumborWarning { logger.warning("\(warning)") }
        // Buffers under 32 MiB (glibc's ceiling for the threshold) come from malloc's arenas and their freed pages
        // are reused by the next request instead of being unmapped and faulted in again zeroed (a quarter of a PNG
        // request's CPU when each was mapped on its own); an arena keeps at most 32 MiB free at its top, and the
        // free pages of every arena are given back once the service has been idle for half a second (`whenIdle`). Issue 34
        // measured 0.7-1 GB resident, never returned, with glibc's defaults
        // (docs/decisions/0088-memory-reused-then-returned-when-idle.md).
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
        mallopt(M_TRIM_THRESHOLD, 32 << 20)
        // Not while busy: a steady load is idle for an instant between most requests (`IdleDebounce`).
        let trim = IdleDebounce(after: .milliseconds(500)) { _ = malloc_trim(0) }
        var configuration = serveConfiguration()
        configuration.whenIdle = { trim.idle() }
        let server: ImageServer
        do {
            server = try await ImageServer(configuration: configuration, logger: logger)
        } catch {
            writeToStandardError("wi serve: \(error.message)\n")
            throw ExitCode(1)
        }
        // The trims run beside the server and end with it.
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await trim.run() }
            try await server.run { port in
                writeToStandardOutput("wi serve: listening on http://\(bind):\(port)\n")
            }
            group.cancelAll()
        }
    }
}

extension ServeConfiguration.Isolation: ExpressibleByArgument {}

/// The choices of `--origin-cache`.
enum OriginCache: String, ExpressibleByArgument, CaseIterable {
    case ignore, respect, stale
}
