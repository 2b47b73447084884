/// Turns a decoded image into another (resize, crop, blur...) and names the result for the cache
/// (SDWebImage's `SDImageTransformer`).
///
/// The key must encode every parameter: two transformers with equal keys must give equal results.
///
/// Thread safety: `transform` runs on worker threads, concurrently; implementations must be `Sendable`.
public protocol ImageTransformer: Sendable {
    /// A stable, readable key, e.g. `Resize(256x256,fit)`.
    var key: String { get }
    /// The transformed image; throw to fail the load with the error.
    func transform(_ image: Image) throws(ImageError) -> Image
}

/// Several transformers in order; its key joins theirs with "-" (SDWebImage's `SDImagePipelineTransformer`).
///
/// Thread safety: immutable; safe from any thread.
public struct PipelineTransformer: ImageTransformer {
    /// The transformers, applied first to last.
    public let transformers: [any ImageTransformer]

    public init(_ transformers: [any ImageTransformer]) { self.transformers = transformers }

    public var key: String { transformers.map(\.key).joined(separator: "-") }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        var current = image
        for transformer in transformers { current = try transformer.transform(current) }
        return current
    }
}

extension ImageTransformer where Self == PipelineTransformer {
    /// `PipelineTransformer(_:)`: `context[.imageTransformer] = .pipeline([try .brightness(10), .grayscale])`.
    public static func pipeline(_ transformers: [any ImageTransformer]) -> Self { PipelineTransformer(transformers) }
}
