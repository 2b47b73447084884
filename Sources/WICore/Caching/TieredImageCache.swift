#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Metrics

/// The standard cache: a memory tier in front of data tiers (disk, then perhaps Redis), from any plugins.
///
/// A query tries memory, then each data tier in order, and returns what it found as it is: a memory image (a still of
/// its first frame with `.decodeFirstFrameOnly`), or a data tier's bytes (promoted to the data tiers in front of the
/// one that hit). It never decodes: the manager decodes bytes in its shared, counted decode stage and stores the image
/// back into memory. Data tiers are called on the cache's I/O pool (they block), unless `.queryDiskDataSync` asks to
/// read on the calling thread.
/// A store without bytes encodes the image for the data tiers (its own format when a coder encodes it, else PNG).
///
/// ```swift
/// let cache = TieredImageCache(memory: MemoryCache(), dataTiers: [try DiskCache(name: "images")], coders: coders)
/// ```
///
/// Thread safety: all methods may be called from any number of tasks at once.
public final class TieredImageCache: ImageCache, ShutdownCapable, Sendable {
    /// The memory tier, if any.
    public let memory: (any MemoryImageCaching)?
    /// The data tiers, fastest first.
    public let dataTiers: [any DataCaching]
    /// Encodes images that must be stored without bytes.
    public let coders: any ImageCoder
    private let ioPool: WorkerPool
    private let ownsPool: Bool
    private let shutdownOnce = AsyncOnce()
    /// `webimage_cache_lookups_total` per tier (memory first, then the data tiers in order), made once.
    private let lookups: [(hit: Counter, miss: Counter)]

    /// A cache over `memory` and `dataTiers`. Blocking calls run on `ioPool` (nil: a pool of four threads that the
    /// cache makes, starts on first use and ends in `shutdown()`). Each query counts its lookups per tier in
    /// `metrics` (`webimage_cache_lookups_total{tier, result}`; by default the bootstrapped factory).
    public init(
        memory: (any MemoryImageCaching)?, dataTiers: [any DataCaching], coders: any ImageCoder,
        ioPool: WorkerPool? = nil, metrics: any MetricsFactory = MetricsSystem.factory
    ) {
        self.memory = memory
        self.dataTiers = dataTiers
        self.coders = coders
        self.ioPool = ioPool ?? WorkerPool(name: "wi.io", threads: 4)
        ownsPool = ioPool == nil
        lookups = (["memory"] + dataTiers.map(\.metricsName)).map { tier in
            (
                Counter(
                    label: ImageManager.TelemetryNames.cacheLookups, dimensions: [("tier", tier), ("result", "hit")],
                    factory: metrics),
                Counter(
                    label: ImageManager.TelemetryNames.cacheLookups, dimensions: [("tier", tier), ("result", "miss")],
                    factory: metrics)
            )
        }
    }

    public func query(key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType) async
        -> ImageCacheQueryResult?
    {
        if cacheType.includesMemory, let memory {
            guard let image = memory.image(forKey: key) else {
                lookups[0].miss.increment()
                return await queryData(key: key, options: options, cacheType: cacheType)
            }
            lookups[0].hit.increment()
            var data: Data?
            if options.contains(.queryMemoryData) {
                data =
                    options.contains(.queryMemoryDataSync)
                    ? firstData(forKey: key, counted: false)?.data
                    : await ioPool.run { self.firstData(forKey: key, counted: false)?.data }
            }
            // As SDImageCache's query: `.decodeFirstFrameOnly` gets a still of an animated memory image.
            return ImageCacheQueryResult(
                image: options.contains(.decodeFirstFrameOnly) ? image.firstFrameStill : image, data: data,
                cacheType: .memory, httpCacheInfo: image.httpCacheInfo)
        }
        return await queryData(key: key, options: options, cacheType: cacheType)
    }

    private func queryData(key: String, options: ImageOptions, cacheType: ImageCacheType) async
        -> ImageCacheQueryResult?
    {
        guard cacheType.includesDisk, !dataTiers.isEmpty, !Task.isCancelled else { return nil }
        let tiers = dataTiers
        // Reads the first tier that has the key and promotes its bytes to the tiers in front of it.
        let read = { @Sendable () -> (data: Data, info: HTTPCacheInfo?, tier: Int)? in
            guard let found = self.firstData(forKey: key) else { return nil }
            let info = tiers[found.tier].httpCacheInfo(forKey: key)
            for tier in tiers[..<found.tier] { tier.setData(found.data, httpCacheInfo: info, forKey: key) }
            return (found.data, info, found.tier)
        }
        let found = options.contains(.queryDiskDataSync) ? read() : await ioPool.run(read)
        guard let found, !Task.isCancelled else { return nil }
        return ImageCacheQueryResult(image: nil, data: found.data, cacheType: .disk, httpCacheInfo: found.info)
    }

    /// Stores with the HTTP cache info the image carries (a memory tier's image keeps it), if any.
    public func store(image: Image?, data: Data?, key: String, cacheType: ImageCacheType, context: ImageContext) async {
        await store(
            image: image, data: data, httpCacheInfo: image?.httpCacheInfo, key: key, cacheType: cacheType,
            context: context)
    }

    /// Stores `httpCacheInfo` with the memory tier's image and beside each data tier's bytes.
    public func store(
        image: Image?, data: Data?, httpCacheInfo: HTTPCacheInfo?, key: String, cacheType: ImageCacheType,
        context: ImageContext
    ) async {
        if cacheType.includesMemory, let image, !image.flags.contains(.incremental) {
            memory?.setImage(image.with(httpCacheInfo: httpCacheInfo), forKey: key)
        }
        guard cacheType.includesDisk, !dataTiers.isEmpty else { return }
        let tiers = dataTiers
        let coder = context[.imageCoder] ?? coders
        let options = context[.encodeOptions] ?? EncodeOptions()
        await ioPool.run {
            var bytes = data
            if bytes == nil, let image, !image.flags.contains(.incremental) {
                bytes = Self.encodeForStorage(image, coder: coder, options: options)
            }
            guard let bytes else { return }
            for tier in tiers { tier.setData(bytes, httpCacheInfo: httpCacheInfo, forKey: key) }
        }
    }

    /// Replaces the info on the memory tier's image (when it holds one) and beside each data tier's entry.
    public func renewHTTPCacheInfo(_ info: HTTPCacheInfo, key: String, cacheType: ImageCacheType) async {
        if cacheType.includesMemory, let memory, let image = memory.image(forKey: key) {
            memory.setImage(image.with(httpCacheInfo: info), forKey: key)
        }
        guard cacheType.includesDisk, !dataTiers.isEmpty else { return }
        let tiers = dataTiers
        await ioPool.run { for tier in tiers { tier.setHTTPCacheInfo(info, forKey: key) } }
    }

    /// Encodes in the image's own format when possible, else PNG (lossless, keeps alpha).
    static func encodeForStorage(_ image: Image, coder: any ImageCoder, options: EncodeOptions) -> Data? {
        let format = image.format != .undefined && coder.canEncode(to: image.format) ? image.format : .png
        return try? coder.encode(image, as: format, options: options)
    }

    public func remove(key: String, cacheType: ImageCacheType) async {
        if cacheType.includesMemory { memory?.removeImage(forKey: key) }
        guard cacheType.includesDisk else { return }
        let tiers = dataTiers
        await ioPool.run { for tier in tiers { tier.removeData(forKey: key) } }
    }

    public func contains(key: String, cacheType: ImageCacheType) async -> ImageCacheType {
        if cacheType.includesMemory, memory?.image(forKey: key) != nil { return .memory }
        guard cacheType.includesDisk else { return .none }
        let tiers = dataTiers
        return await ioPool.run { tiers.contains { $0.containsData(forKey: key) } } ? .disk : .none
    }

    public func clear(cacheType: ImageCacheType) async {
        if cacheType.includesMemory { memory?.removeAll() }
        guard cacheType.includesDisk else { return }
        let tiers = dataTiers
        await ioPool.run { for tier in tiers { tier.removeAllData() } }
    }

    /// Ends the tiers that can be shut down (memory, disk, Redis) and the cache's own I/O pool once the calls in
    /// flight have finished.
    public func shutdown() async {
        await shutdownOnce.run { [memory, dataTiers, ioPool, ownsPool] in
            for tier in dataTiers { await (tier as? any ShutdownCapable)?.shutdown() }
            await (memory as? any ShutdownCapable)?.shutdown()
            if ownsPool { ioPool.shutdown() }
        }
    }

    /// The first data tier's bytes for `key`; `counted` counts each tier's lookup.
    private func firstData(forKey key: String, counted: Bool = true) -> (data: Data, tier: Int)? {
        for (index, tier) in dataTiers.enumerated() {
            if let data = tier.data(forKey: key) {
                if counted { lookups[index + 1].hit.increment() }
                return (data, index)
            }
            if counted { lookups[index + 1].miss.increment() }
        }
        return nil
    }
}
