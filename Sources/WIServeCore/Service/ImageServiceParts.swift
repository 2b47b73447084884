#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Tracing
import WebImage
import WIIsolation

/// The parts of the pipeline `wi serve` runs, made from its configuration: coders, caches, the two curl loaders
/// (public addresses only; and, with `--allow-host`, one that may also reach the allowed hosts' addresses, used
/// only for URLs on those hosts), Redis when asked, one CPU pool for decode, transform and encode, and the manager
/// that owns them all.
package struct ImageServiceParts: Sendable {
    package let manager: ImageManager
    package let coders: ImageCodersManager
    /// The loader for URLs whose host is in `allowedHosts`, nil without `--allow-host`.
    package let allowedLoader: (any ImageLoader)?
    package let allowedHosts: Set<String>
    /// `--file-root`'s folder and the loader that reads its files (nil without it).
    package let fileRoot: FileRoot?
    package let fileLoader: (any ImageLoader)?
    package let pool: WorkerPool
    /// The encoded answers (nil with `--no-cache`).
    package let variants: VariantCache?
    /// The fleet-wide single-flight wrappers of the loaders (empty without `--redis`).
    package let singleFlights: [RedisSingleFlightLoader]
    /// With an app's manager, the parts the service made and shuts down itself (with its own manager, the manager
    /// owns every part and this is empty).
    let ownParts: [any ShutdownCapable]
    /// Whether the manager is the service's own (shut down with the service).
    package let ownsManager: Bool

    /// Makes the parts; when a step fails (a bad cache folder, an unreachable Redis...), everything made before it
    /// is shut down before the error is thrown. `made` sees each part that needs a shutdown as it is made (tests).
    static func make(
        configuration: ServeConfiguration, metrics: ServeMetrics, logger: Logger, tracer: any Tracer,
        manager: ImageManager? = nil,
        made: @Sendable (any ShutdownCapable) -> Void = { _ in }
    ) async throws(ImageError)
        -> ImageServiceParts
    {
        try configuration.validate()
        var owned: [any ShutdownCapable] = []
        do throws(ImageError) {
            return try ImageServiceParts(
                configuration: configuration, metrics: metrics, logger: logger, tracer: tracer,
                manager: manager
            ) { part in
                owned.append(part)
                made(part)
            }
        } catch {
            for part in owned { await part.shutdown() }
            throw error
        }
    }

    /// Shuts down what the service owns: its manager (and with it every part), or, with an app's manager, the
    /// parts the service made.
    func shutdown() async {
        if ownsManager {
            await manager.shutdown()
        } else {
            for part in ownParts { await part.shutdown() }
        }
    }

    /// `own` gets each part that needs a shutdown as soon as it exists, in the order the manager shuts them down:
    /// the loaders (single-flight wrappers first), the caches, Redis, the pools. With `appManager`, the app's
    /// manager loads, decodes and transforms (its caches, loaders, coders and address policy): no cache, loader,
    /// Redis or decode worker is made here, only the variant cache and the `--file-root` / `--allow-host` loaders.
    private init(
        configuration: ServeConfiguration, metrics: ServeMetrics, logger: Logger, tracer: any Tracer,
        manager appManager: ImageManager?, own: (any ShutdownCapable) -> Void
    ) throws(ImageError) {
        coders = WebImage.makeCoders()
        // thumbor's PNG_COMPRESSION_LEVEL (6) is zlib's level; libdeflate's level 5 gives the same bytes as Pillow at
        // zlib 6 within 0.4% (the Service thumbnails: 3,157,378 against 3,146,438; libdeflate 6: 3,108,804) in two
        // thirds of the time (6.1 ms a thumbnail against 9.4; docs/PERFORMANCE.md).
        coders.addCoder(PNGCoder(compressionLevel: 5))
        // Ahead of the umbrella's SVG coder: thumbor's SVG_DPI (the decode workers get it on their command line).
        coders.addCoder(SVGCoder(dpi: configuration.svgDPI))
        var parts: [any ShutdownCapable] = []
        func keep(_ part: any ShutdownCapable) {
            if part is RedisSingleFlightLoader { parts.insert(part, at: 0) } else { parts.append(part) }
            own(part)
        }
        if configuration.isolation != .none, appManager == nil {
            // Ahead of the in-process coders: the isolated formats decode in workers, the others here. SVG and PDF
            // workers may read fonts; every other worker may open no file at all.
            let formats =
                configuration.isolation == .all ? Set(coders.decodingFormats) : IsolatedCoder.uncancellableFormats
            let text = formats.intersection(IsolatedCoder.FileAccess.textFormats)
            for (group, files) in [(text, IsolatedCoder.FileAccess.fonts), (formats.subtracting(text), .none)]
            where !group.isEmpty {
                let isolated = try IsolatedCoder(
                    configuration: .init(
                        command: configuration.workerCommand, formats: group,
                        memoryLimit: configuration.maxRequestMemory, fileAccess: files),
                    coders: WebImage.makeCoders())
                keep(isolated)
                coders.addCoder(isolated)
            }
        }
        var redis: RedisCache?
        if appManager == nil, let text = configuration.redisURL, let address = RedisAddress(text) {
            var redisConfiguration = RedisCache.Configuration(host: address.host, port: address.port)
            redisConfiguration.database = address.database
            redisConfiguration.logger = logger
            let cache = try RedisCache(configuration: redisConfiguration)
            keep(cache)
            // One EXISTS: a start against a Redis that cannot be reached fails now, not as a silent miss on every request.
            do throws(ImageError) { _ = try cache.contains(forKey: "wi-serve:start") } catch {
                throw ImageError(
                    .networkError, "redis at \(address.host):\(address.port) cannot be reached: \(error.message)")
            }
            redis = cache
        }
        let coders = self.coders
        /// A curl loader refusing private addresses but `exceptions`, behind Redis's single flight when there is one.
        func curlLoader(exceptions: Set<String>) throws(ImageError) -> any ImageLoader {
            let curl = try Self.loader(configuration, exceptions: exceptions, coders: coders, logger: logger)
            keep(curl)
            guard let redis else { return curl }
            let wrapped = RedisSingleFlightLoader(wrapping: curl, redis: redis)
            keep(wrapped)
            return wrapped
        }
        var loader: any ImageLoader
        if let appManager { loader = appManager.loader } else { loader = try curlLoader(exceptions: []) }
        allowedHosts = Set(configuration.allowedHosts.map { Self.normalized(host: $0) })
        var allowed: (any ImageLoader)?
        if !allowedHosts.isEmpty {
            let addresses = allowedHosts.reduce(into: Set<String>()) { $0.formUnion(HostAddresses.resolve($1)) }
            allowed = try curlLoader(exceptions: addresses)
        }
        singleFlights = [loader, allowed].compactMap { $0 as? RedisSingleFlightLoader }
        allowedLoader = allowed
        if let folder = configuration.fileRoot {
            fileRoot = try FileRoot(folder)
            var files = CurlImageLoader.Configuration()
            files.allowedSchemes = ["file"]
            files.acceptedFormats = { [coders] in coders.decodingFormats }
            files.maximumBodySize = configuration.maxSourceBytes
            files.logger = logger
            let fileLoader = try CurlImageLoader(configuration: files)
            keep(fileLoader)
            self.fileLoader = fileLoader
        } else {
            fileRoot = nil
            fileLoader = nil
        }
        var dataTiers: [any DataCaching] = []
        var memory: MemoryCache?
        var variantTiers: [any DataCaching] = []
        if configuration.useCache {
            var disk = DiskCache.Configuration()
            disk.logger = logger
            let root = configuration.cacheDirectory ?? Self.defaultCacheRoot()
            // Bounded by --cache-size: three quarters for originals, a quarter for answers, trimmed past it (an
            // app's manager has its own image caches: the service adds its answers' tiers only).
            if appManager == nil {
                disk.sizeLimit = configuration.cacheSize / 4 * 3
                let images = try DiskCache(name: "images", root: root, configuration: disk)
                own(images)  // the tiered cache shuts it down
                dataTiers.append(images)
                memory = try MemoryCache(configuration: .init(costLimit: configuration.memoryCacheBytes))
            }
            disk.sizeLimit = configuration.cacheSize / 4
            let variantDisk = try DiskCache(name: "variants", root: root, configuration: disk)
            keep(variantDisk)
            let variantMemory = DataMemoryCache(byteLimit: configuration.variantMemoryBytes, metricsName: "variants")
            variantTiers = [variantMemory, variantDisk]
        }
        if variantTiers.isEmpty {
            variants = nil
        } else {
            let io = WorkerPool(name: "wi.serve.io", threads: 2)
            keep(io)
            variants = VariantCache(tiers: variantTiers, io: io)
        }
        if let appManager {
            manager = appManager
            pool = appManager.cpuPool
            ownParts = parts
            ownsManager = false
            return
        }
        if let redis { dataTiers.append(redis) }
        let cache = TieredImageCache(memory: memory, dataTiers: dataTiers, coders: coders, metrics: metrics.factory)
        keep(cache)
        if let redis {
            // Shut down after the caches and loaders that use it.
            parts.removeAll { $0 as? RedisCache === redis }
            parts.append(redis)
        }
        pool = WorkerPool.cpu(name: "wi.serve")
        keep(pool)
        var managerConfiguration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
        managerConfiguration.cpuPool = pool
        managerConfiguration.owning = parts
        managerConfiguration.logger = logger
        managerConfiguration.metrics = metrics.factory
        managerConfiguration.tracer = tracer
        manager = ImageManager(configuration: managerConfiguration)
        ownParts = []
        ownsManager = true
    }

    /// The curl loader: http(s) only, image content types only, the body limit, the timeout, and the SSRF policy
    /// with `exceptions`.
    private static func loader(
        _ configuration: ServeConfiguration, exceptions: Set<String>, coders: ImageCodersManager,
        logger: Logger
    ) throws(ImageError) -> CurlImageLoader {
        var loader = CurlImageLoader.Configuration()
        loader.acceptedFormats = { [coders] in coders.decodingFormats }
        loader.acceptableContentTypes = ["image/*"]
        loader.allowedSchemes = ["http", "https"]
        loader.maximumBodySize = configuration.maxSourceBytes
        // The origin's own limit, within the request's (whose timer answers first, 504, when it is shorter).
        loader.totalTimeout = min(configuration.originTimeout, configuration.timeout + 1)
        loader.addressPolicy = .publicOnly(exceptions: exceptions)
        loader.proxy = configuration.proxy.flatMap(URL.init(string:))
        // An origin that says nothing about freshness: its sources count as fresh as long as the answers say.
        loader.defaultMaxAge = configuration.maxAge
        loader.maxConcurrentTransfers = max(6, configuration.concurrency)
        loader.logger = logger
        return try CurlImageLoader(configuration: loader)
    }

    /// A host as compared with `--allow-host`: lower case, IPv6 brackets removed.
    package static func normalized(host: String) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        return name
    }

    /// `$XDG_CACHE_HOME/wi-serve` or `~/.cache/wi-serve`.
    package static func defaultCacheRoot() -> String {
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return xdg.hasSuffix("/") ? xdg + "wi-serve" : xdg + "/wi-serve"
        }
        return SystemFile.homeDirectory + "/.cache/wi-serve"
    }
}
