// The umbrella: one import for WICore and every plugin, and ready-made registries for apps that want everything.
@_exported import WICore
@_exported import WICacheDisk
@_exported import WICacheMemory
@_exported import WICacheRedis
@_exported import WICoderGIF
@_exported import WICoderHEIC
@_exported import WICoderJPEG
@_exported import WICoderPNG
@_exported import WICoderTIFF
@_exported import WICoderWebP
@_exported import WILoaderCurl
@_exported import WITransform

/// Ready-made configurations built from every plugin this package ships.
///
/// ```swift
/// let manager = try WebImage.makeManager()
/// let result = try await manager.loadImage(with: url)
/// ```
///
/// Thread safety: every call returns new, independent objects (the resampler installed is process-wide).
public enum WebImage {
    /// A coders manager with every coder this package ships; also installs WITransform's pixman resampler for
    /// the coders' thumbnail path.
    public static func makeCoders() -> ImageCodersManager {
        PixmanResampler.install()
        return ImageCodersManager(coders: [TIFFCoder(), GIFCoder(), PNGCoder(), JPEGCoder(), WebPCoder(), HEIFCoder()])
    }

    /// A manager with sensible defaults: a memory cache (W-TinyLFU, a quarter of physical memory at most), a disk
    /// cache named `images` under `diskCacheRoot` (nil: `$XDG_CACHE_HOME/WebImage` or `~/.cache/WebImage`;
    /// `useDiskCache: false` for none), the curl loader (http and https; file and data URLs too when
    /// `allowLocalURLs`), an Accept header listing every decodable format, and every coder.
    public static func makeManager(diskCacheRoot: String? = nil, useDiskCache: Bool = true,
                                   allowLocalURLs: Bool = false) throws(ImageError) -> ImageManager {
        let coders = makeCoders()
        var dataTiers: [any DataCaching] = []
        if useDiskCache { dataTiers.append(try DiskCache(name: "images", root: diskCacheRoot)) }
        let cache = TieredImageCache(memory: MemoryCache(), dataTiers: dataTiers, coders: coders)
        var configuration = CurlImageLoader.Configuration()
        configuration.accept = CurlImageLoader.Configuration.acceptHeader(for: coders.decodingFormats)
        if allowLocalURLs { configuration.allowedSchemes.formUnion(["file", "data"]) }
        return ImageManager(cache: cache, loader: CurlImageLoader(configuration: configuration), coders: coders)
    }
}
