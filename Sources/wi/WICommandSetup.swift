import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// The pipeline `wi fetch` and `wi prefetch` run: memory cache, wi's disk cache, the curl loader (http, https,
/// file and data URLs), every coder, WITransform.
struct WICommandSetup {
    /// The help of `--srgb` (`wi convert`, `wi fetch`).
    static let srgbHelp = "Convert the pixels to sRGB with the file's colour profile, and drop the profile."

    let manager: ImageManager
    let coders: ImageCodersManager

    init(cacheDirectory: String?, useDiskCache: Bool) throws {
        coders = WebImage.makeCoders()
        // PNGs that `wi` writes (--out files, thumbnails stored in the disk cache) use zlib level 3: on 300 corpus
        // thumbnails about half the encode time of level 6 for 4.6% more bytes (docs/PERFORMANCE.md, corpus rows).
        coders.addCoder(PNGCoder(compressionLevel: 3))
        let dataTiers: [any DataCaching] = useDiskCache ? [try WICommandCache.diskCache(at: cacheDirectory)] : []
        let cache = TieredImageCache(memory: MemoryCache(), dataTiers: dataTiers, coders: coders)
        var loading = CurlImageLoader.Configuration()
        loading.logger = WI.logger
        // Asked when the first request goes out: a run that finds everything in the disk cache never loads libheif.
        loading.acceptedFormats = { [coders] in coders.decodingFormats }
        loading.allowedSchemes = ["http", "https", "file", "data"]
        let loader = try CurlImageLoader(configuration: loading)
        var configuration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
        configuration.owning = [loader, cache]
        configuration.logger = WI.logger
        manager = ImageManager(configuration: configuration)
    }

    /// `WxH` as a size, nil when malformed (the range is checked by `resizeTransformer`).
    static func parseSize(_ text: String) -> PixelSize? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        return PixelSize(width: width, height: height)
    }

    /// `--resize WxH`: exactly that size, centre-cropped; `.invalidArgument` when a side is out of range.
    static func resizeTransformer(_ size: PixelSize) throws(ImageError) -> any ImageTransformer {
        try ResizeTransformer(width: size.width, height: size.height, mode: .aspectFill)
    }

    /// Runs the library's own check of an option's value, turning its `.invalidArgument` into a usage error
    /// (exit code 2) that names the option: `--thumbnail: thumbnail width must be in 0...65536, got 70000`.
    static func checkOption(_ option: String, _ check: () throws(ImageError) -> Void) throws(ValidationError) {
        do { try check() } catch { throw ValidationError("\(option): \(error.message)") }
    }

    /// `--thumbnail N`: positive, and a box the decoders accept.
    static func checkThumbnail(_ thumbnail: Int?) throws(ValidationError) {
        guard let thumbnail else { return }
        guard thumbnail > 0 else { throw ValidationError("--thumbnail must be positive") }
        try checkOption("--thumbnail") { () throws(ImageError) in
            try DecodeOptions(thumbnailPixelSize: PixelSize(width: thumbnail, height: thumbnail)).validate()
        }
    }

    /// `--quality Q`: a quality the encoders accept (0 to 1).
    static func checkQuality(_ quality: Double) throws(ValidationError) {
        try checkOption("--quality") { () throws(ImageError) in try EncodeOptions(quality: quality).validate() }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
