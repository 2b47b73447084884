import Foundation

/// The standard cache: a memory tier in front of data tiers (disk, then perhaps Redis), from any plugins.
///
/// A query tries memory, then each data tier in order. A data hit is decoded once (on `WorkerPool.cpu`, with the
/// context's coder and decode options), promoted to the memory tier (unless `context[.storeCacheType]` excludes
/// memory) and to the data tiers in front of the one that hit. An entry that fails to decode counts as a miss and is removed from its tier. Data tiers are called on
/// `WorkerPool.io` (they block), unless `.queryDiskDataSync` asks to read on the calling thread.
///
/// ```swift
/// let cache = TieredImageCache(memory: MemoryCache(), dataTiers: [try DiskCache(name: "images")], coders: coders)
/// ```
///
/// Thread safety: all methods may be called from any number of tasks at once.
public final class TieredImageCache: ImageCache, Sendable {
    /// The memory tier, if any.
    public let memory: (any MemoryImageCaching)?
    /// The data tiers, fastest first.
    public let dataTiers: [any DataCaching]
    /// Decodes data hits and encodes images that must be stored without bytes.
    public let coders: any ImageCoder
    private let ioPool: WorkerPool
    private let cpuPool: WorkerPool

    public init(memory: (any MemoryImageCaching)?, dataTiers: [any DataCaching], coders: any ImageCoder,
                ioPool: WorkerPool = .io, cpuPool: WorkerPool = .cpu) {
        self.memory = memory
        self.dataTiers = dataTiers
        self.coders = coders
        self.ioPool = ioPool
        self.cpuPool = cpuPool
    }

    public func query(key: String, options: ImageOptions, context: ImageContext, cacheType: ImageCacheType) async
        -> ImageCacheQueryResult?
    {
        if cacheType.includesMemory, let image = memory?.image(forKey: key) {
            var data: Data?
            if options.contains(.queryMemoryData) {
                data = options.contains(.queryMemoryDataSync) ? firstData(forKey: key)?.data
                    : await ioPool.run { self.firstData(forKey: key)?.data }
            }
            return ImageCacheQueryResult(image: image, data: data, cacheType: .memory)
        }
        guard cacheType.includesDisk else { return nil }
        let coder = context[.imageCoder] ?? coders
        let decodeOptions = context[.decodeOptions] ?? DecodeOptions()
        for (index, tier) in dataTiers.enumerated() {
            if Task.isCancelled { return nil }
            let data = options.contains(.queryDiskDataSync) ? tier.data(forKey: key)
                : await ioPool.run { tier.data(forKey: key) }
            guard let data, !Task.isCancelled else { continue }
            let decoded = await cpuPool.run { () -> Image? in try? coder.decode(data, options: decodeOptions) }
            guard let image = decoded else {
                await ioPool.run { tier.removeData(forKey: key) }   // unreadable entry: a miss, and gone
                continue
            }
            if index > 0 {
                let front = dataTiers[..<index]
                await ioPool.run { for tier in front { tier.setData(data, forKey: key) } }
            }
            // Promote unless the caller's store type excludes memory (a thumbnail decoded from a full-size entry
            // must not land in memory under the full-size key).
            if (context[.storeCacheType] ?? .all).includesMemory, !image.flags.contains(.incremental) {
                memory?.setImage(image, forKey: key)
            }
            return ImageCacheQueryResult(image: image, data: data, cacheType: .disk)
        }
        return nil
    }

    public func store(image: Image?, data: Data?, key: String, cacheType: ImageCacheType, context: ImageContext) async {
        if cacheType.includesMemory, let image, !image.flags.contains(.incremental) {
            memory?.setImage(image, forKey: key)
        }
        guard cacheType.includesDisk, !dataTiers.isEmpty else { return }
        var bytes = data
        if bytes == nil, let image, !image.flags.contains(.incremental) {
            let coder = context[.imageCoder] ?? coders
            let options = context[.encodeOptions] ?? EncodeOptions()
            bytes = await cpuPool.run { Self.encodeForStorage(image, coder: coder, options: options) }
        }
        guard let bytes else { return }
        let tiers = dataTiers
        await ioPool.run { for tier in tiers { tier.setData(bytes, forKey: key) } }
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

    private func firstData(forKey key: String) -> (data: Data, tier: Int)? {
        for (index, tier) in dataTiers.enumerated() {
            if let data = tier.data(forKey: key) { return (data, index) }
        }
        return nil
    }
}
