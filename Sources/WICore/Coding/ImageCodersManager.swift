import Foundation
import Synchronization

/// A prioritized list of coders that is itself a coder: the last added coder is asked first.
///
/// Decoding goes to the first coder (highest priority) whose `canDecode` accepts the data; if that coder throws
/// `.unsupportedFormat` the next one is tried. Encoding goes to the first coder whose `canEncode` accepts the
/// format.
///
/// ```swift
/// let coders = ImageCodersManager()
/// coders.addCoder(PNGCoder())
/// coders.addCoder(MyQOICoder())          // asked before PNGCoder
/// let image = try coders.decode(data, options: .init())
/// ```
///
/// Thread safety: all methods may be called from any thread at once; registration takes effect for decodes that
/// start after it returns.
public final class ImageCodersManager: ProgressiveImageCoder, Sendable {
    private let registered: Mutex<[any ImageCoder]>

    /// A manager with `coders`, the last one with the highest priority.
    public init(coders: [any ImageCoder] = []) {
        registered = Mutex(coders)
    }

    /// The coders, highest priority first.
    public var coders: [any ImageCoder] { registered.withLock { Array($0.reversed()) } }

    /// Adds a coder with the highest priority.
    public func addCoder(_ coder: any ImageCoder) {
        registered.withLock { $0.append(coder) }
    }

    /// Removes every coder for which `predicate` is true.
    public func removeCoders(where predicate: (any ImageCoder) -> Bool) {
        registered.withLock { $0.removeAll(where: predicate) }
    }

    public var decodingFormats: [ImageFormat] {
        var seen = Set<ImageFormat>()
        return coders.flatMap(\.decodingFormats).filter { seen.insert($0).inserted }
    }

    public func canDecode(_ data: Data) -> Bool {
        coders.contains { $0.canDecode(data) }
    }

    /// Decodes with the last-added coder that accepts `data`; `.invalidArgument` first when `options` are out of
    /// range (`DecodeOptions.validate()`).
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        try options.validate()
        guard !data.isEmpty else { throw ImageError(.badImageData, "the image data is empty") }
        for coder in coders where coder.canDecode(data) {
            do {
                return try coder.decode(data, options: options)
            } catch where error.code == .unsupportedFormat {
                continue
            }
        }
        throw ImageError(.badImageData, "no registered coder decodes this data (detected format: \(ImageFormat.detect(data)))")
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        coders.contains { $0.canEncode(to: format) }
    }

    /// Encodes with the last-added coder for `format`; `.invalidArgument` first when `options` are out of range
    /// (`EncodeOptions.validate()`).
    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        try options.validate()
        for coder in coders where coder.canEncode(to: format) {
            do {
                return try coder.encode(image, as: format, options: options)
            } catch where error.code == .unsupportedFormat {
                continue
            }
        }
        throw ImageError(.unsupportedFormat, "no registered coder encodes \(format)")
    }

    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        for case let coder as any ProgressiveImageCoder in coders where coder.canDecode(header) {
            if let decoder = coder.makeIncrementalDecoder(header: header, options: options) { return decoder }
        }
        return nil
    }

    /// A frame-by-frame decoder from the first animated coder that accepts `data`.
    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder {
        try options.validate()
        for case let coder as any AnimatedImageCoder in coders where coder.canDecode(data) {
            do {
                return try coder.makeAnimatedDecoder(data, options: options)
            } catch where error.code == .unsupportedFormat {
                continue
            }
        }
        throw ImageError(.unsupportedFormat, "no registered animated coder decodes this data")
    }
}
