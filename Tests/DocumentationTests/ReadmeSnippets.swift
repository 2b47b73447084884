// swift-format-ignore-file
// (its regions are compared, character for character, with the documents' code blocks)
// The Swift blocks of the README and docs/GUIDE.md (besides the quick start, which is Examples/QuickStart), as the
// build compiles them: each between `// doc:begin` and `// doc:end`, with what it needs around it.
// DocumentationBlocksTests checks that the documents print exactly these.
import CustomPlugins
import Foundation
import WebImage

enum ReadmeSnippets {
    static func progressive(manager: ImageManager, url: URL, context: ImageContext) {
        // doc:begin
        let token = manager.loadImage(with: url, options: [.progressiveLoad], context: context, progress: { event in
            if case .partialImage(let preview) = event { print("preview", preview.width, preview.height) }
        }) { result in
            // exactly once: .success(ImageResult) or .failure(ImageError), 2002 when cancelled
        }
        token.cancel()
        // doc:end
    }

    struct Tenant: Sendable {
        var id: String
        var token: String
    }

    static func tenants(manager: ImageManager, url: URL, tenant: Tenant) async throws -> ImageResult {
        // doc:begin
        var context = ImageContext()
        context[.requestModifier] = ImageLoading.BlockRequestModifier { request in
            var signed = request
            signed.headers["Authorization"] = "Bearer \(tenant.token)"
            return signed
        }
        context[.cachePartition] = tenant.id        // joins every cache key: memory, disk, Redis
        let result = try await manager.loadImage(with: url, context: context)
        // doc:end
        return result
    }

    static func httpCaching(manager: ImageManager, url: URL) async throws -> ImageResult.HTTPCacheOutcome? {
        // doc:begin
        var context = ImageContext()
        context[.httpCachePolicy] = .staleWhileRevalidate(maxStale: .seconds(300))
        let result = try await manager.loadImage(with: url, context: context)
        print(result.httpCacheOutcome as Any)   // .fresh, .stale, .revalidated (304), .replaced (200), or nil
        // doc:end
        return result.httpCacheOutcome
    }

    static func plugins(ioPool: WorkerPool, myS3Tier: any DataCaching) throws -> ImageManager {
        // doc:begin
        let coders = WebImage.makeCoders()
        coders.addCoder(NetpbmCoder())                         // an ImageCoder: canDecode (magic bytes), decode, encode
        let loaders = ImageLoadersManager(loaders: [try CurlImageLoader()])
        loaders.addLoader(AssetLoader(root: "/usr/share/app", pool: ioPool)) // an ImageLoader for an app-defined asset: scheme
        let cache = TieredImageCache(memory: MemoryCache(), dataTiers: [try DiskCache(name: "images"), myS3Tier],
                                     coders: coders)            // MemoryImageCaching / DataCaching tiers
        var configuration = ImageManager.Configuration(cache: cache, loader: loaders, coders: coders)
        configuration.transformer = .pipeline([try .resize(width: 200, height: 200, mode: .aspectFill),
                                                try .roundCorner(radius: 12)])
        let manager = ImageManager(configuration: configuration)
        // doc:end
        return manager
    }

    static func show(_ frame: ImageFrame) {}

    static func frames(coders: ImageCodersManager, data: Data) throws {
        // doc:begin
        let image = try coders.decode(data, options: DecodeOptions())      // frame 0 decoded, the rest on demand
        for index in 0..<image.frameCount { show(try image.frame(at: index)) }   // pixels + duration
        // doc:end
    }
}
