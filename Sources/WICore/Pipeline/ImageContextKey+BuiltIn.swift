#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The context keys WICore and its plugins read. Each names the default that applies when it is unset, and declares
// its role in request identity (`ImageContext.KeyRole`): the keys the manager resolves into decode options, cache
// types or the transformer key are `.irrelevant` here because those resolved values are compared instead; the request
// modifier is `.irrelevant` because the request it produces is compared (`ImageLoading.Identity`).

extension ImageContext.Key where Value == any ImageCache {
    /// The cache to use instead of the manager's.
    public static var imageCache: Self { Self("imageCache", role: .result) }
    /// Where the original (untransformed) image is cached; the manager's cache by default.
    public static var originalImageCache: Self { Self("originalImageCache", role: .result) }
}

extension ImageContext.Key where Value == any ImageLoader {
    /// The loader to use instead of the manager's.
    public static var imageLoader: Self { Self("imageLoader", role: .request) }
}

extension ImageContext.Key where Value == any ImageCoder {
    /// The coder to use instead of the manager's coders.
    public static var imageCoder: Self { Self("imageCoder", role: .result) }
}

extension ImageContext.Key where Value == any ImageTransformer {
    /// Transforms the decoded image; its key becomes part of the cache key.
    public static var imageTransformer: Self { Self("imageTransformer", role: .irrelevant) }
}

extension ImageContext.Key where Value == DecodeOptions {
    /// Decode options as a whole; the individual keys below override their fields.
    public static var decodeOptions: Self { Self("decodeOptions", role: .irrelevant) }
}

extension ImageContext.Key where Value == EncodeOptions {
    /// How images are encoded when the cache needs bytes and has none (e.g. a transformed image for disk).
    public static var encodeOptions: Self { Self("encodeOptions", role: .result) }
}

extension ImageContext.Key where Value == PixelSize {
    /// Decode no larger than this box; becomes part of the cache key.
    public static var thumbnailPixelSize: Self { Self("thumbnailPixelSize", role: .irrelevant) }
}

extension ImageContext.Key where Value == Bool {
    /// With `thumbnailPixelSize`: keep the aspect ratio (default true).
    public static var preserveAspectRatio: Self { Self("preserveAspectRatio", role: .irrelevant) }
}

extension ImageContext.Key where Value == Double {
    /// The display scale recorded on images (default 1).
    public static var scaleFactor: Self { Self("scaleFactor", role: .irrelevant) }
}

extension ImageContext.Key where Value == Int {
    /// Decode at most this many bytes of pixels (with `.scaleDownLargeImages`, 60 MB when unset).
    public static var scaleDownLimitBytes: Self { Self("scaleDownLimitBytes", role: .irrelevant) }
}

extension ImageContext.Key where Value == ImageCacheType {
    /// Which caches to query (default `.all`).
    public static var queryCacheType: Self { Self("queryCacheType", role: .irrelevant) }
    /// Which caches store the result (default `.all`).
    public static var storeCacheType: Self { Self("storeCacheType", role: .irrelevant) }
    /// Which caches to query for the original of a transformed image (default `.disk`).
    public static var originalQueryCacheType: Self { Self("originalQueryCacheType", role: .irrelevant) }
    /// Which caches store the original of a transformed image (default `.disk`).
    public static var originalStoreCacheType: Self { Self("originalStoreCacheType", role: .irrelevant) }
}

extension ImageContext.Key where Value == any ImageLoading.RequestModifier {
    /// Changes the request before it is sent (URL, method, headers), or cancels it.
    public static var requestModifier: Self { Self("requestModifier", role: .irrelevant) }
}

extension ImageContext.Key where Value == any ImageLoading.ResponseModifier {
    /// Inspects the response head and may reject it.
    public static var responseModifier: Self { Self("responseModifier", role: .request) }
}

extension ImageContext.Key where Value == any ImageLoading.DataDecryptor {
    /// Turns the downloaded bytes into image bytes (e.g. decrypts them) before decoding.
    public static var decryptor: Self { Self("decryptor", role: .request) }
}

extension ImageContext.Key where Value == any CacheKeyFilter {
    /// Turns a URL into the cache key (default: the absolute string).
    public static var cacheKeyFilter: Self { Self("cacheKeyFilter", role: .result) }
}

extension ImageContext.Key where Value == any CacheSerializer {
    /// Chooses the bytes stored in data caches (default: the downloaded bytes).
    public static var cacheSerializer: Self { Self("cacheSerializer", role: .result) }
}

extension ImageContext.Key where Value == any ImageManager.CallbackExecutor {
    /// Where callback-form completions and progress run (e.g. an `ImageManager.SerialCallbackExecutor`; default: the
    /// thread that finished the work).
    public static var callbackExecutor: Self { Self("callbackExecutor", role: .irrelevant) }
}

extension ImageContext.Key where Value == String {
    /// Names a target's load slot: a new load with the same key cancels the previous one (target binding).
    public static var operationKey: Self { Self("operationKey", role: .irrelevant) }
}

extension ImageContext.Key where Value == String {
    /// Joins every cache key (memory, disk, Redis, any `ImageCache`): entries stored under one partition are
    /// invisible to loads with another partition or with none. A multi-tenant server sets it per tenant, and for
    /// every request that carries credentials, cookies or other private headers.
    public static var cachePartition: Self { Self("cachePartition", role: .request) }
}

extension ImageContext.Key where Value == @Sendable () async throws(ImageError) -> Void {
    /// Awaited by the shared task before it decodes or transforms for the request that started it, once the bytes
    /// are in hand (not for a memory hit, nor for requests that join the task): a service's bound on CPU work that
    /// a load waiting for its download does not hold. Throwing fails the load with that error. Unset: nothing.
    public static var beforeWork: Self { Self("beforeWork", role: .irrelevant) }
}
