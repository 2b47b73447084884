// Names WICore had before its types were nested (issue 37: the top level keeps what an app meets first). Each
// old name still compiles, with a deprecation warning naming its new place, for one release; then this file goes.

@available(*, deprecated, renamed: "ImageCoding.AnimatedFrameBuffer")
public typealias AnimatedFrameBuffer = ImageCoding.AnimatedFrameBuffer

@available(*, deprecated, renamed: "ImageCoding.AreaAverageResampler")
public typealias AreaAverageResampler = ImageCoding.AreaAverageResampler

@available(*, deprecated, renamed: "CacheKeys.BlockKeyFilter")
public typealias BlockCacheKeyFilter = CacheKeys.BlockKeyFilter

@available(*, deprecated, renamed: "CacheKeys.BlockSerializer")
public typealias BlockCacheSerializer = CacheKeys.BlockSerializer

@available(*, deprecated, renamed: "ImageLoading.BlockDataDecryptor")
public typealias BlockDataDecryptor = ImageLoading.BlockDataDecryptor

@available(*, deprecated, renamed: "ImageManager.BlockOptionsProcessor")
public typealias BlockOptionsProcessor = ImageManager.BlockOptionsProcessor

@available(*, deprecated, renamed: "ImageLoading.BlockRequestModifier")
public typealias BlockRequestModifier = ImageLoading.BlockRequestModifier

@available(*, deprecated, renamed: "ImageLoading.BlockResponseModifier")
public typealias BlockResponseModifier = ImageLoading.BlockResponseModifier

@available(*, deprecated, renamed: "ImageLoading.FinishedOperation")
public typealias FinishedLoadOperation = ImageLoading.FinishedOperation

@available(*, deprecated, renamed: "ImageResult.HTTPCacheOutcome")
public typealias HTTPCacheOutcome = ImageResult.HTTPCacheOutcome

@available(*, deprecated, renamed: "ImageManager.HTTPCacheStatistics")
public typealias HTTPCacheStatistics = ImageManager.HTTPCacheStatistics

@available(*, deprecated, renamed: "ImageManager.CallbackExecutor")
public typealias ImageCallbackExecutor = ImageManager.CallbackExecutor

@available(*, deprecated, renamed: "ImageContext.Key")
public typealias ImageContextKey = ImageContext.Key

@available(*, deprecated, renamed: "ImageContext.KeyRole")
public typealias ImageContextKeyRole = ImageContext.KeyRole

@available(*, deprecated, renamed: "ImageLoading.DataDecryptor")
public typealias ImageDataDecryptor = ImageLoading.DataDecryptor

@available(*, deprecated, renamed: "ImageCoding.Geometry")
public typealias ImageGeometry = ImageCoding.Geometry

@available(*, deprecated, renamed: "ImageLoading.HTTPRequest")
public typealias ImageHTTPRequest = ImageLoading.HTTPRequest

@available(*, deprecated, renamed: "ImageLoading.Event")
public typealias ImageLoadEvent = ImageLoading.Event

@available(*, deprecated, renamed: "ImageLoading.Metrics")
public typealias ImageLoadMetrics = ImageLoading.Metrics

@available(*, deprecated, renamed: "ImageLoading.Operation")
public typealias ImageLoadOperation = ImageLoading.Operation

@available(*, deprecated, renamed: "ImageLoading.Progress")
public typealias ImageLoadProgress = ImageLoading.Progress

@available(*, deprecated, renamed: "ImageLoading.Request")
public typealias ImageLoadRequest = ImageLoading.Request

@available(*, deprecated, renamed: "ImageLoading.ResponseHead")
public typealias ImageLoadResponseHead = ImageLoading.ResponseHead

@available(*, deprecated, renamed: "ImageManager.Event")
public typealias ImageManagerEvent = ImageManager.Event

@available(*, deprecated, renamed: "ImageLoading.Identity")
public typealias ImageRequestIdentity = ImageLoading.Identity

@available(*, deprecated, renamed: "ImageLoading.RequestModifier")
public typealias ImageRequestModifier = ImageLoading.RequestModifier

@available(*, deprecated, renamed: "ImageLoading.Priority")
public typealias ImageRequestPriority = ImageLoading.Priority

@available(*, deprecated, renamed: "ImageManager.RequestToken")
public typealias ImageRequestToken = ImageManager.RequestToken

@available(*, deprecated, renamed: "ImageLoading.ResponseModifier")
public typealias ImageResponseModifier = ImageLoading.ResponseModifier

@available(*, deprecated, renamed: "ImageManager.TelemetryNames")
public typealias ImageTelemetryNames = ImageManager.TelemetryNames

@available(*, deprecated, renamed: "ImageCoding.PixelPoint")
public typealias PixelPoint = ImageCoding.PixelPoint
