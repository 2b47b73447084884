// swift-format-ignore-file
// (its regions are compared, character for character, with the documents' code blocks)
// The DocC catalogs' Swift blocks (WICore, WITransform, WIServe), as the build compiles them: each between
// `// doc:begin` and `// doc:end`, with what it needs around it. DocumentationBlocksTests checks that the
// articles print exactly these.
// doc:begin
import WICore
import WICoderPNG
import WICoderJPEG
import WICacheDisk
// doc:end
import Foundation
import Synchronization
import Hummingbird
import WebImage
import WIServe

enum CatalogSnippets {
    static func show(_ pixels: PixelBuffer, for duration: Double) {}

    static func animatedImages(coders: ImageCodersManager, gifData: Data) throws {
        // doc:begin
        let image = try coders.decode(gifData, options: DecodeOptions())
        for index in 0..<image.frameCount {
            let frame = try image.frame(at: index)            // decoded now, or taken from the buffer
            show(frame.pixels, for: frame.duration)
        }
        // doc:end
    }

    static func gettingStarted(myLoader: any ImageLoader) throws -> ImageManager {
        // doc:begin
        let coders = ImageCodersManager(coders: [PNGCoder(), JPEGCoder()])
        let cache = TieredImageCache(memory: nil, dataTiers: [try DiskCache(name: "images")], coders: coders)
        let manager = ImageManager(cache: cache, loader: myLoader, coders: coders)
        // doc:end
        return manager
    }

    static func colorManagement(manager: ImageManager, url: URL) async throws -> ImageResult {
        // doc:begin
        var options = DecodeOptions(thumbnailPixelSize: PixelSize(width: 256, height: 256))
        options.targetColorSpace = .sRGB
        var context = ImageContext()
        context[.decodeOptions] = options
        let result = try await manager.loadImage(with: url, context: context)   // sRGB pixels, no profile
        // doc:end
        return result
    }

    static func firstLoad(manager: ImageManager) async throws {
        // doc:begin
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 256, height: 256)
        let result = try await manager.loadImage(with: URL(string: "https://example.com/cat.jpg")!, context: context)
        print(result.image.width, result.image.height, result.cacheType)   // e.g. 256 171 none
        // doc:end
    }

    static func callback(manager: ImageManager, url: URL) {
        // doc:begin
        let token = manager.loadImage(with: url, options: [.progressiveLoad]) { result in
            // exactly once: success, or an ImageError (2002 when cancelled)
        }
        token.cancel()
        // doc:end
    }

    static func checkedValues(width: Int, height: Int) -> ImageContext {
        var context = ImageContext()
        // doc:begin
        do {
            context[.imageTransformer] = try ResizeTransformer(width: width, height: height)   // values from a query string
        } catch {
            print(error.message)   // "resize width must be in 1...32767, got 0"
        }
        // doc:end
        return context
    }

    static func httpCaching(manager: ImageManager, url: URL) async throws {
        // doc:begin
        var context = ImageContext()
        context[.httpCachePolicy] = .staleWhileRevalidate(maxStale: .seconds(300))
        let result = try await manager.loadImage(with: url, context: context)
        print(result.httpCacheOutcome as Any)   // .fresh, .stale, .revalidated, .replaced, or nil
        // doc:end
    }

    static func cachePlugin(memory: any MemoryImageCaching, disk: DiskCache, coders: ImageCodersManager) -> TieredImageCache {
        // doc:begin
        let cache = TieredImageCache(memory: memory, dataTiers: [disk, S3Tier()], coders: coders)
        // doc:end
        return cache
    }

    static func coderPlugin(coders: ImageCodersManager) {
        // doc:begin
        coders.addCoder(QOICoder())
        // doc:end
    }

    static func transformers() throws -> ImageContext {
        var context = ImageContext()
        // doc:begin
        context[.imageTransformer] = PipelineTransformer([try .resize(width: 256, height: 256, mode: .aspectFill),
                                                          try .sharpen(amount: 1, radius: 0.5)])
        // doc:end
        return context
    }

    static func mounted(configuration: ServeConfiguration, manager: ImageManager, router: Router<BasicRequestContext>)
        async throws {
        // doc:begin
        let service = try await ImageService(configuration: configuration, manager: manager)
        router.addThumborRoutes(at: "/thumbs", service: service)
        router.addImageRoute("/avatars/:id/:size", service: service) { _, context in
            let id = try context.parameters.require("id")
            let size = try context.parameters.require("size", as: Int.self)
            return ImageRoute(source: URL(string: "https://cdn.example.com/\(id).jpg")!,
                              transformer: try ResizeTransformer(width: size, height: size, mode: .aspectFill), format: .webp)
        }
        // doc:end
    }
}

/// An object store for the cache-plugin article (in memory here: the article's is S3).
final class ObjectStore: Sendable {
    private let objects = Mutex<[String: Data]>([:])
    func get(_ key: String) throws -> Data? { objects.withLock { $0[key] } }
    func put(_ key: String, _ data: Data) throws { objects.withLock { $0[key] = data } }
    func delete(_ key: String) throws { _ = objects.withLock { $0.removeValue(forKey: key) } }
    func head(_ key: String) throws -> Int? { objects.withLock { $0[key]?.count } }
    func deletePrefix(_ prefix: String) throws { objects.withLock { $0 = $0.filter { !$0.key.hasPrefix(prefix) } } }
}

let client = ObjectStore()

// doc:begin
final class S3Tier: DataCaching {
    func data(forKey key: String) -> Data? { try? client.get(key) }     // nil on any failure
    func setData(_ data: Data, forKey key: String) { try? client.put(key, data) }
    func removeData(forKey key: String) { try? client.delete(key) }
    func containsData(forKey key: String) -> Bool { (try? client.head(key)) != nil }
    func removeAllData() { try? client.deletePrefix("") }
}
// doc:end

// doc:begin
struct QOICoder: ImageCoder {
    var decodingFormats: [ImageFormat] { [.qoi] }
    func canDecode(_ data: Data) -> Bool { data.starts(with: Array("qoif".utf8)) }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let size = try header(data)                       // throw .badImageData for malformed input
        try options.checkPixelLimit(size)                 // before any large allocation
        var pixels = try PixelBuffer(width: size.width, height: size.height, format: .rgba8, zeroed: false)
        try pixels.withUnsafeMutableBytes { (bytes) throws(ImageError) in try decodePixels(data, into: bytes) }
        let finished = try options.finish(pixels, orientation: .up)   // thumbnail, orientation, alpha form
        return Image(pixels: finished.pixels, format: .qoi, flags: finished.isThumbnail ? .thumbnail : [],
                     decodeOptions: options)
    }
}

extension ImageFormat { static let qoi = ImageFormat("qoi", mimeType: "image/qoi", fileExtension: "qoi") }
// doc:end

extension QOICoder {
    /// The width and height in a QOI header (big-endian 32-bit after the magic).
    func header(_ data: Data) throws(ImageError) -> PixelSize {
        let bytes = [UInt8](data.prefix(14))
        guard bytes.count == 14, canDecode(data) else { throw ImageError(.badImageData, "not a QOI header") }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return PixelSize(width: word(4), height: word(8))
    }

    /// The article's decoder fills the pixels from QOI's chunks; this one only checks there are some.
    func decodePixels(_ data: Data, into pixels: UnsafeMutableRawBufferPointer) throws(ImageError) {
        guard data.count > 14 + 8 else { throw ImageError(.badImageData, "no QOI chunks") }
    }
}
