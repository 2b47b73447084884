import WICore

/// The names WICore had before issue 37 nested them under `ImageManager`, `ImageLoading`, `ImageCoding`,
/// `ImageContext`, `ImageResult` and `CacheKeys` still compile, as an app written against them does (this
/// declaration is deprecated itself, so using them here warns nothing), each naming the same type as its new place.
@available(*, deprecated, message: "uses WICore's old names on purpose")
enum DeprecatedNames {
    static let pairs: [(Any.Type, Any.Type)] = [
        (AnimatedFrameBuffer.self, ImageCoding.AnimatedFrameBuffer.self),
        (AreaAverageResampler.self, ImageCoding.AreaAverageResampler.self),
        (BlockCacheKeyFilter.self, CacheKeys.BlockKeyFilter.self),
        (BlockCacheSerializer.self, CacheKeys.BlockSerializer.self),
        (BlockDataDecryptor.self, ImageLoading.BlockDataDecryptor.self),
        (BlockOptionsProcessor.self, ImageManager.BlockOptionsProcessor.self),
        (BlockRequestModifier.self, ImageLoading.BlockRequestModifier.self),
        (BlockResponseModifier.self, ImageLoading.BlockResponseModifier.self),
        (FinishedLoadOperation.self, ImageLoading.FinishedOperation.self),
        (HTTPCacheOutcome.self, ImageResult.HTTPCacheOutcome.self),
        (HTTPCacheStatistics.self, ImageManager.HTTPCacheStatistics.self),
        ((any ImageCallbackExecutor).self, (any ImageManager.CallbackExecutor).self),
        (ImageContextKey<Int>.self, ImageContext.Key<Int>.self),
        (ImageContextKeyRole.self, ImageContext.KeyRole.self),
        ((any ImageDataDecryptor).self, (any ImageLoading.DataDecryptor).self),
        (ImageGeometry.self, ImageCoding.Geometry.self),
        (ImageHTTPRequest.self, ImageLoading.HTTPRequest.self),
        (ImageLoadEvent.self, ImageLoading.Event.self),
        (ImageLoadMetrics.self, ImageLoading.Metrics.self),
        ((any ImageLoadOperation).self, (any ImageLoading.Operation).self),
        (ImageLoadProgress.self, ImageLoading.Progress.self),
        (ImageLoadRequest.self, ImageLoading.Request.self),
        (ImageLoadResponseHead.self, ImageLoading.ResponseHead.self),
        (ImageManagerEvent.self, ImageManager.Event.self),
        (ImageRequestIdentity.self, ImageLoading.Identity.self),
        ((any ImageRequestModifier).self, (any ImageLoading.RequestModifier).self),
        (ImageRequestPriority.self, ImageLoading.Priority.self),
        (ImageRequestToken.self, ImageManager.RequestToken.self),
        ((any ImageResponseModifier).self, (any ImageLoading.ResponseModifier).self),
        (ImageTelemetryNames.self, ImageManager.TelemetryNames.self),
        (PixelPoint.self, ImageCoding.PixelPoint.self),
    ]
}
