import Foundation
import WebImage

/// The pipeline `wi fetch` and `wi prefetch` run: memory cache, wi's disk cache, the curl loader (http, https,
/// file and data URLs), every coder, WITransform.
struct WICommandSetup {
    let manager: ImageManager
    let coders: ImageCodersManager

    init(cacheDirectory: String?, useDiskCache: Bool) throws {
        coders = WebImage.makeCoders()
        let dataTiers: [any DataCaching] = useDiskCache ? [try WICommandCache.diskCache(at: cacheDirectory)] : []
        let cache = TieredImageCache(memory: MemoryCache(), dataTiers: dataTiers, coders: coders)
        var configuration = CurlImageLoader.Configuration()
        configuration.logger = WI.logger
        configuration.accept = CurlImageLoader.Configuration.acceptHeader(for: coders.decodingFormats)
        configuration.allowedSchemes = ["http", "https", "file", "data"]
        let loader = CurlImageLoader(configuration: configuration)
        manager = ImageManager(cache: cache, loader: loader, coders: coders, owning: [loader, cache],
                               logger: WI.logger)
    }

    /// `WxH` as a size, nil when malformed.
    static func parseSize(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// `--resize WxH`: exactly that size, centre-cropped.
    func resizeTransformer(_ size: PixelSize) -> any ImageTransformer {
        ResizeTransformer(width: size.width, height: size.height, mode: .aspectFill)
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    /// Writes one result into `directory`: the downloaded bytes as they are when nothing changed the image and no
    /// format was asked, else the image encoded as `format` (default: its own format when encodable, else PNG).
    func write(_ result: ImageResult, named url: URL, index: Int, into directory: String, format: ImageFormat?,
               quality: Double, transformed: Bool) throws {
        var stem = (url.lastPathComponent as NSString).deletingPathExtension
        if stem.isEmpty || stem == "/" { stem = "image-\(index)" }
        let bytes: Data
        let chosen: ImageFormat
        if format == nil, !transformed, let data = result.data {
            bytes = data
            chosen = ImageFormat.detect(data) == .undefined ? result.image.format : ImageFormat.detect(data)
        } else {
            chosen = format ?? (coders.canEncode(to: result.image.format) ? result.image.format : .png)
            bytes = try coders.encode(result.image, as: chosen, options: EncodeOptions(quality: quality))
        }
        let name = "\(index)-\(stem).\(chosen.fileExtension.isEmpty ? "bin" : chosen.fileExtension)"
        try bytes.write(to: URL(fileURLWithPath: directory).appendingPathComponent(name), options: .atomic)
    }
}
