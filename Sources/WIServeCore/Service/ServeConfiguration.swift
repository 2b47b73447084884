#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// What `wi serve` is told: the address, the secret, the sources it may reach, caches and limits.
///
/// Defaults are the safe ones: loopback only, signed URLs only, public origin addresses only, 50 megapixels.
///
/// Thread safety: a value type; safe to send and share.
public struct ServeConfiguration: Sendable {
    /// The address to listen on (default 127.0.0.1).
    public var bind = "127.0.0.1"
    /// The port to listen on (default 8888, thumbor's); 0 picks a free one.
    public var port = 8888
    /// The thumbor security keys (`--key`, repeatable): a URL signed with any of them is accepted, so a new key
    /// can be added before the old one is dropped (docs/decisions/0051-key-rotation.md); the first is the one
    /// the service would sign with. Empty: every signed URL is refused (only `unsafe/` could work).
    public var keys: [String] = []
    /// The first of `keys` (the signing key); setting it replaces the first key, nil removes them all.
    public var key: String? {
        get { keys.first }
        set {
            if let newValue { if keys.isEmpty { keys = [newValue] } else { keys[0] = newValue } } else { keys = [] }
        }
    }
    /// An HTTP proxy for origin fetches (`--proxy http://host:port`): the proxy is trusted, and each source's
    /// address (and each redirect's) is still checked against the address policy before the proxy is asked.
    public var proxy: String?
    /// A folder whose files are sources (`--file-root`, thumbor's file loader): a source without `http://` or
    /// `https://` is a path under it. Absolute paths, `..`, and symbolic links that lead out of the folder are
    /// refused (400); a missing file is a 404. Nil: every source is fetched over HTTP.
    public var fileRoot: String?
    /// The sources the service may fetch (`--allow-source`, repeatable); empty allows every public source. A
    /// pattern with `://` is a URL prefix (`https://cdn.example.com/images/`); any other is a host name where `*`
    /// stands for any characters (`*.example.com`, `img?.example.com` is literal). A source no pattern matches is a
    /// 403 before any connection, as thumbor's ALLOWED_SOURCES and imgproxy's ALLOWED_SOURCES.
    public var allowedSources: [String] = []
    /// Accept `/unsafe/` URLs (default false).
    public var allowUnsafe = false
    /// Hosts whose URLs may reach addresses the SSRF policy refuses (loopback, private...): names or literals.
    public var allowedHosts: [String] = []
    /// The disk cache's folder (nil: `$XDG_CACHE_HOME/wi-serve` or `~/.cache/wi-serve`).
    public var cacheDirectory: String?
    /// Keep originals on disk and results in memory and on disk (default true; `--no-cache` turns both off).
    public var useCache = true
    /// A Redis URL (`redis://host[:port][/db]`) for the shared tier and fleet-wide single flight.
    public var redisURL: String?
    /// The most pixels (width x height x frames) a source and a result may have (default 50 megapixels).
    public var maxPixels = 50_000_000
    /// The most frames (or pages) a source may have (default 1,000): a larger animation is refused (413) before
    /// any frame is decoded. Every frame also counts against `maxPixels`.
    public var maxFrames = 1_000
    /// Seconds a failed source (refused, too large, undecodable, its origin failing) and a request that timed out
    /// are answered again from memory (default 10; 0 turns it off): a retry storm of one hostile URL costs nothing.
    public var failureTTL: Double = 10
    /// The most filters one URL may name (default 32); more is a 400 before any work.
    public var maxFilters = 32
    /// `--strict`: a filter thumbor would skip or clamp (an unknown name, an argument it cannot parse, a value out
    /// of range) is a 400 naming it, a missing or bad signature and an unsafe URL that is not allowed are 403, and
    /// a source or result over the pixel limit is 413. Default false: thumbor 7.8's answers (the filter skipped or
    /// its value clamped, as thumbor does; 400 for the signature and the pixel limit). docs/SERVE.md, "Strict".
    public var strict = false
    /// The largest source body in bytes (default 32 MiB), refused while it streams in.
    public var maxSourceBytes: Int64 = 32 << 20
    /// Requests that work at once (default: the number of cores).
    public var concurrency = ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait for a slot (default 16); beyond that, 503 with Retry-After.
    public var queue = 16
    /// Called each time the last request in flight has ended (none working, yielded or in line), on the thread that
    /// ended it, outside the service's locks: keep it short. `wi serve` schedules the return of freed memory to the
    /// system there (glibc's `malloc_trim`), so that buffers are reused while requests follow each other and returned
    /// when the service is idle (docs/decisions/0088-memory-reused-then-returned-when-idle.md). Nil (the default):
    /// nothing is called.
    public var whenIdle: (@Sendable () -> Void)?
    /// Seconds a request may take from its start, waiting included (default 30); then 504.
    public var timeout: Double = 30
    /// Seconds a connection may take to send a request's head from its first byte (default 10, imgproxy's read
    /// timeout); then it is closed (slowloris clients).
    public var headerTimeout: Double = 10
    /// Seconds a connection may wait for its next request (default 10, imgproxy's keep-alive timeout); at most 1
    /// while 90% of `maxConnections` are open.
    public var idleTimeout: Double = 10
    /// Connections open at once (default 2048, imgproxy's); more wait in the listen backlog.
    public var maxConnections = 2048
    /// Which decodes run in sandboxed worker processes (`--isolate`): none; the formats whose decoders cannot be
    /// stopped between rows (SVG, PDF, HEIC, HEIF, AVIF: `wi serve`'s default); or all. A worker past its
    /// request's deadline is killed, and a crash or a forbidden system call costs that request alone (502).
    public var isolation = Isolation.none
    /// The decode worker's command (`wi decode-worker`): needed unless `isolation` is `.none`.
    public var workerCommand: [String] = []
    /// The memory one request may use, in bytes (`--max-request-memory`, default 2 GiB): a transform whose
    /// estimated peak (every frame in and out, plus its costliest filter's working buffers) is larger is refused
    /// (413) before it starts, and each decode worker's address space is limited to it.
    public var maxRequestMemory = 2 << 30

    /// The choices of `isolation`.
    public enum Isolation: String, Sendable, CaseIterable {
        case none, uncancellable, all
    }

    /// Answer in WebP when the request's Accept allows it and the URL names no format.
    public var autoWebP = false
    /// Answer in AVIF when the request's Accept allows it and the URL names no format (still images).
    public var autoAVIF = false
    /// thumbor's AUTO_JPG: answer an opaque still image in JPEG when Accept names `*/*`, `image/jpg` or `image/jpeg`
    /// and the URL names no format (after WebP and AVIF, as thumbor orders them).
    public var autoJPG = false
    /// thumbor's AUTO_PNG: answer a still image in PNG when Accept names `image/png` and the URL names no format.
    public var autoPNG = false
    /// thumbor's AUTO_HEIF: answer a still image in HEIF when Accept names `image/heif` and the URL names no format.
    public var autoHEIF = false
    /// thumbor's AUTO_PNG_TO_JPG: answer an opaque PNG source in JPEG when the URL names no format, whatever Accept.
    public var autoPNGToJPG = false
    /// thumbor's ACCESS_CONTROL_ALLOW_ORIGIN_HEADER: the `Access-Control-Allow-Origin` value of image answers; nil:
    /// none.
    public var accessControlAllowOrigin: String?
    /// thumbor's PROGRESSIVE_JPEG: encode JPEG answers progressive (thumbor's default is on; ours off, for speed:
    /// docs/SERVE.md).
    public var progressiveJPEG = false
    /// thumbor's ENABLE_ETAGS: answers carry an ETag and a matching `If-None-Match` gets a 304 (default); false:
    /// neither (`--no-etags`; Last-Modified and `If-Modified-Since` still work).
    public var etags = true
    /// thumbor's MAX_WIDTH and MAX_HEIGHT (0: none): a requested width or height past them is capped, and a source
    /// past them is shrunk before anything else, by thumbor's rule (docs/SERVE.md).
    public var maxWidth = 0
    public var maxHeight = 0
    /// thumbor's SVG_DPI: the resolution SVG lengths in inches, centimetres, millimetres, points and picas render
    /// at (`--svg-dpi`, default 150 as thumbor's; CSS pixels stay pixels).
    public var svgDPI = 150.0

    /// The auto conversions above, as the format choice takes them.
    var negotiation: OutputFormat.Negotiation {
        OutputFormat.Negotiation(
            webP: autoWebP, avif: autoAVIF, jpg: autoJPG, png: autoPNG, heif: autoHEIF,
            pngToJPG: autoPNGToJPG)
    }
    /// The encoder's quality when the URL names none with `quality()` (`--quality`, default 80: thumbor's QUALITY).
    public var quality = 80
    /// WebP answers' quality when the URL names none (`--webp-quality`, thumbor's WEBP_QUALITY); nil: `quality`.
    public var webpQuality: Int?
    /// AVIF answers' quality when the URL names none (`--avif-quality`, thumbor's AVIF_QUALITY); nil: `quality`.
    public var avifQuality: Int?
    /// `Cache-Control: max-age=N,public` and `Expires` (now + N) of successful answers, in seconds (default 86400,
    /// thumbor's MAX_AGE); 0: neither header, as thumbor.
    public var maxAge = 86_400
    /// Keep the source's EXIF and XMP in answers (`--keep-metadata`). Default false: answers carry no GPS position,
    /// camera serial or timestamps (thumbor and imgproxy strip by default too); the colour profile always stays,
    /// and the orientation is applied to the pixels first.
    public var keepMetadata = false
    /// Keep the EXIF Artist and Copyright fields when the rest is stripped (`--keep-copyright`; thumbor's
    /// PRESERVE_EXIF_COPYRIGHT_INFO, default false).
    public var keepCopyright = false
    /// How sources follow their origin's HTTP caching (`--origin-cache`, `--origin-max-stale`): by default a
    /// source is used while its Cache-Control / Expires say it is fresh, then for up to a day more while it is
    /// revalidated in the background (If-None-Match / If-Modified-Since), and each answer is stored as long as its
    /// source is fresh, so a changed image behind the same URL is picked up within its max-age (plus that
    /// window). `.ignore` keeps sources and answers until evicted. A source whose origin says nothing about
    /// freshness counts as fresh for `maxAge`.
    public var originCachePolicy = HTTPCachePolicy.staleWhileRevalidate(maxStale: .seconds(86_400))
    /// Seconds the origin may take to send a source (default 10), within `timeout`: a slow origin fails with 504
    /// on its own while the request could still answer something else.
    public var originTimeout: Double = 10
    /// Bytes the disk cache may take (default 10 GiB: originals three quarters, encoded answers one quarter), the
    /// oldest entries trimmed in the background past it; 0 leaves it unbounded.
    public var cacheSize: Int64 = 10 << 30
    /// The memory cache's limit in bytes of pixels (default 256 MiB).
    public var memoryCacheBytes = 256 << 20
    /// The memory limit of the encoded-variant cache in bytes (default 64 MiB); an answer above an eighth of it is
    /// kept on disk only.
    public var variantMemoryBytes = 64 << 20

    /// The defaults.
    public init() {}

    /// Throws `.invalidArgument` naming the first value out of range.
    public func validate() throws(ImageError) {
        try check(port, 0...65535, "port")
        try check(maxPixels, 1...DecodeOptions.defaultPixelLimit, "max-pixels")
        try check(Int(clamping: maxSourceBytes), 1...(1 << 40), "max-source-bytes")
        try check(maxFrames, 1...1_000_000, "max-frames")
        try check(maxFilters, 0...1_000, "max-filters")
        try check(maxWidth, 0...ImageCoding.Geometry.maximumSide, "max-width")
        try check(maxHeight, 0...ImageCoding.Geometry.maximumSide, "max-height")
        guard (1...10_000).contains(svgDPI) else {
            throw ImageError(.invalidArgument, "svg-dpi must be in [1, 10000], got \(svgDPI)")
        }
        try check(concurrency, 1...4096, "concurrency")
        try check(queue, 0...1_000_000, "queue")
        try check(maxAge, 0...(10 * 365 * 86_400), "max-age")
        try check(quality, 0...100, "quality")
        if let webpQuality { try check(webpQuality, 0...100, "webp-quality") }
        if let avifQuality { try check(avifQuality, 0...100, "avif-quality") }
        try check(variantMemoryBytes, 0...(1 << 40), "variant-memory-bytes")
        try check(maxConnections, 1...1_000_000, "max-connections")
        guard failureTTL.isFinite, failureTTL >= 0, failureTTL <= 86_400 else {
            throw ImageError(.invalidArgument, "failure-ttl must be in [0, 86400] seconds, got \(failureTTL)")
        }
        try check(maxRequestMemory, 64 << 20...(1 << 44), "max-request-memory")
        if isolation != .none, workerCommand.isEmpty {
            throw ImageError(.invalidArgument, "isolation \(isolation.rawValue) needs the decode worker's command")
        }
        for (value, name) in [(headerTimeout, "header-timeout"), (idleTimeout, "idle-timeout")] {
            guard value.isFinite, value > 0, value <= 86_400 else {
                throw ImageError(.invalidArgument, "\(name) must be in (0, 86400] seconds, got \(value)")
            }
        }
        try check(Int(clamping: cacheSize), 0...(1 << 50), "cache-size")
        try check(memoryCacheBytes, 0...(1 << 42), "memory-cache-bytes")
        guard originTimeout.isFinite, originTimeout > 0, originTimeout <= 86_400 else {
            throw ImageError(.invalidArgument, "origin-timeout must be in (0, 86400] seconds, got \(originTimeout)")
        }
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw ImageError(.invalidArgument, "timeout must be in (0, 86400] seconds, got \(timeout)")
        }
        if let proxy,
            URL(string: proxy).flatMap({ $0.scheme?.lowercased() == "http" && $0.host != nil ? $0 : nil }) == nil
        {
            throw ImageError(.invalidArgument, "proxy must be http://host:port, got \(proxy)")
        }
        if let redisURL, RedisAddress(redisURL) == nil {
            throw ImageError(.invalidArgument, "redis must be redis://host[:port][/db], got \(redisURL)")
        }
    }

    /// What the default qualities add to a thumbor request's variant key: nothing for thumbor's defaults (80 for
    /// every format), so that the keys stored before the settings existed still match.
    var qualityKey: String {
        // An SVG_DPI other than thumbor's joins it the same way: answers rendered at another resolution differ.
        let dpi = svgDPI == 150 ? "" : "/dpi\(svgDPI)"
        guard quality != 80 || webpQuality != nil || avifQuality != nil else { return dpi.isEmpty ? "" : "q80" + dpi }
        func text(_ value: Int?) -> String { value.map(String.init) ?? "=" }
        return "q\(quality)/\(text(webpQuality))/\(text(avifQuality))" + dpi
    }

    private func check(_ value: Int, _ range: ClosedRange<Int>, _ name: String) throws(ImageError) {
        guard range.contains(value) else {
            throw ImageError(
                .invalidArgument, "\(name) must be in \(range.lowerBound)...\(range.upperBound), got \(value)")
        }
    }
}

/// `redis://host[:port][/db]`.
struct RedisAddress: Equatable {
    var host: String
    var port: Int
    var database: Int

    init(host: String, port: Int, database: Int) {
        self.host = host
        self.port = port
        self.database = database
    }

    init?(_ text: String) {
        guard let components = URLComponents(string: text), components.scheme == "redis",
            let host = components.host, !host.isEmpty
        else { return nil }
        self.host = host
        port = components.port ?? 6379
        let path = components.path.filter { $0 != "/" }
        if path.isEmpty {
            database = 0
        } else if let database = Int(path), (0...15).contains(database) {
            self.database = database
        } else {
            return nil
        }
        guard (1...65535).contains(port) else { return nil }
    }
}
