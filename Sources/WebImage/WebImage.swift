// The umbrella: one import for WICore and every plugin, and ready-made registries for apps that want everything.
@_exported import WICore
@_exported import WICoderSupport
@_exported import WICacheDisk
@_exported import WICacheMemory
@_exported import WICacheRedis
@_exported import WICoderBMP
@_exported import WICoderGIF
@_exported import WICoderHEIC
@_exported import WICoderJPEG
@_exported import WICoderPDF
@_exported import WICoderJXL
@_exported import WICoderPNG
@_exported import WICoderSVG
@_exported import WICoderTIFF
@_exported import WICoderWebP
@_exported import WIColor
@_exported import WILoaderCurl
@_exported import WITransform

/// Ready-made configurations built from every plugin this package ships.
///
/// ```swift
/// let manager = try WebImage.makeManager()
/// let result = try await manager.loadImage(with: url)
/// ```
///
/// Thread safety: every call returns new, independent objects; none changes process-wide state.
public enum WebImage {
    /// A coders manager with every coder this package ships, which gives WITransform's `PixmanResampler` to its
    /// coders (for thumbnails and encoding size limits) whenever the options name no resampler. No side effect: a
    /// plain `ImageCodersManager` or a coder called directly still uses `ImageCoding.AreaAverageResampler`.
    public static func makeCoders() -> ImageCodersManager {
        ImageCodersManager(
            coders: [
                BMPCoder(pngCoder: PNGCoder()), GIFCoder(), PNGCoder(), JPEGCoder(), WebPCoder(), HEIFCoder(),
                SVGCoder(),
                PDFCoder(), JXLCoder(), TIFFCoder(),
            ],
            resampler: PixmanResampler(), colorConverter: LittleCMSConverter())
    }

    /// A manager with sensible defaults: a memory cache (W-TinyLFU, a quarter of physical memory at most), a disk
    /// cache named `images` under `diskCacheRoot` (nil: `$XDG_CACHE_HOME/WebImage` or `~/.cache/WebImage`;
    /// `useDiskCache: false` for none), the curl loader (http and https; file and data URLs too when
    /// `allowLocalURLs`), an Accept header listing every decodable format, and every coder. The manager owns them:
    /// its `shutdown()` ends the loader's and the caches' threads too.
    public static func makeManager(
        diskCacheRoot: String? = nil, useDiskCache: Bool = true,
        allowLocalURLs: Bool = false
    ) throws(ImageError) -> ImageManager {
        let coders = makeCoders()
        var dataTiers: [any DataCaching] = []
        if useDiskCache { dataTiers.append(try DiskCache(name: "images", root: diskCacheRoot)) }
        let cache = TieredImageCache(memory: MemoryCache(), dataTiers: dataTiers, coders: coders)
        var loading = CurlImageLoader.Configuration()
        loading.acceptedFormats = { [coders] in coders.decodingFormats }
        if allowLocalURLs { loading.allowedSchemes.formUnion(["file", "data"]) }
        let loader = try CurlImageLoader(configuration: loading)
        var configuration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
        configuration.owning = [loader, cache]
        return ImageManager(configuration: configuration)
    }
}
