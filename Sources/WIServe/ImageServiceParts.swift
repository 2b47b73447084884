#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import WebImage

/// The parts of the pipeline `wi serve` runs, made from its configuration: coders, caches, the two curl loaders
/// (public addresses only; and, with `--allow-host`, one that may also reach the allowed hosts' addresses, used
/// only for URLs on those hosts), Redis when asked, one CPU pool for decode, transform and encode, and the manager
/// that owns them all.
struct ImageServiceParts: Sendable {
    let manager: ImageManager
    let coders: ImageCodersManager
    /// The loader for URLs whose host is in `allowedHosts`, nil without `--allow-host`.
    let allowedLoader: (any ImageLoader)?
    let allowedHosts: Set<String>
    let pool: WorkerPool

    init(configuration: ServeConfiguration, metrics: ServeMetrics, logger: Logger) throws(ImageError) {
        try configuration.validate()
        coders = WebImage.makeCoders()
        var owned: [any ShutdownCapable] = []
        var redis: RedisCache?
        if let text = configuration.redisURL, let address = RedisAddress(text) {
            var redisConfiguration = RedisCache.Configuration(host: address.host, port: address.port)
            redisConfiguration.database = address.database
            redisConfiguration.logger = logger
            let cache = try RedisCache(configuration: redisConfiguration)
            redis = cache
        }
        // Shut down in this order: the loaders (single-flight wrappers first), the caches, Redis, the CPU pool.
        let strict = try Self.loader(configuration, exceptions: [], coders: coders, logger: logger)
        var loader: any ImageLoader = strict
        if let redis {
            let wrapped = RedisSingleFlightLoader(wrapping: strict, redis: redis)
            owned.append(wrapped)
            loader = wrapped
        }
        owned.append(strict)
        allowedHosts = Set(configuration.allowedHosts.map { Self.normalized(host: $0) })
        if allowedHosts.isEmpty {
            allowedLoader = nil
        } else {
            let addresses = allowedHosts.reduce(into: Set<String>()) { $0.formUnion(HostAddresses.resolve($1)) }
            let loose = try Self.loader(configuration, exceptions: addresses, coders: coders, logger: logger)
            if let redis {
                let wrapped = RedisSingleFlightLoader(wrapping: loose, redis: redis)
                owned.append(wrapped)
                allowedLoader = wrapped
            } else {
                allowedLoader = loose
            }
            owned.append(loose)
        }
        var dataTiers: [any DataCaching] = []
        var memory: MemoryCache?
        if configuration.useCache {
            var disk = DiskCache.Configuration()
            disk.logger = logger
            dataTiers.append(try DiskCache(name: "images", root: configuration.cacheDirectory ?? Self.defaultCacheRoot(),
                                           configuration: disk))
            memory = try MemoryCache(configuration: .init(costLimit: configuration.memoryCacheBytes))
        }
        if let redis { dataTiers.append(redis) }
        let cache = TieredImageCache(memory: memory, dataTiers: dataTiers, coders: coders, metrics: metrics.factory)
        owned.append(cache)
        if let redis { owned.append(redis) }
        pool = WorkerPool.cpu(name: "wi.serve")
        owned.append(pool)
        manager = ImageManager(cache: cache, loader: loader, coders: coders, cpuPool: pool, owning: owned,
                               logger: logger, metrics: metrics.factory)
    }

    /// The curl loader: http(s) only, image content types only, the body limit, the timeout, and the SSRF policy
    /// with `exceptions`.
    private static func loader(_ configuration: ServeConfiguration, exceptions: Set<String>, coders: ImageCodersManager,
                               logger: Logger) throws(ImageError) -> CurlImageLoader {
        var loader = CurlImageLoader.Configuration()
        loader.accept = CurlImageLoader.Configuration.acceptHeader(for: coders.decodingFormats)
        loader.acceptableContentTypes = ["image/*"]
        loader.allowedSchemes = ["http", "https"]
        loader.maximumBodySize = configuration.maxSourceBytes
        loader.totalTimeout = configuration.timeout + 1  // the request's own timer answers first (504)
        loader.addressPolicy = .publicOnly(exceptions: exceptions)
        loader.maxConcurrentTransfers = max(6, configuration.concurrency)
        loader.logger = logger
        return try CurlImageLoader(configuration: loader)
    }

    /// A host as compared with `--allow-host`: lower case, IPv6 brackets removed.
    static func normalized(host: String) -> String {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        return name
    }

    /// `$XDG_CACHE_HOME/wi-serve` or `~/.cache/wi-serve`.
    static func defaultCacheRoot() -> String {
        if let xdg = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return xdg.hasSuffix("/") ? xdg + "wi-serve" : xdg + "/wi-serve"
        }
        return SystemFile.homeDirectory + "/.cache/wi-serve"
    }
}
