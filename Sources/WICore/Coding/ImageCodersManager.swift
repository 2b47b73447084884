#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A prioritized list of coders that is itself a coder: the last added coder is asked first.
///
/// Decoding goes to the first coder (highest priority) whose `canDecode` accepts the data; if that coder throws
/// `.unsupportedFormat` the next one is tried; when none accepts the data, or every one declines, decoding throws
/// `.unsupportedFormat` (1004), so that a coder registered later can still load it (1001 means bad bytes). Encoding goes to the first coder whose `canEncode` accepts the
/// format.
///
/// A manager made with a `resampler` hands it to its coders in every `DecodeOptions` and `EncodeOptions` that name
/// none (decode, encode, incremental and animated decoders); the images it returns record the options as passed, so
/// they compare equal to the caller's. Options that name a resampler keep theirs; without one the coders use
/// `ImageCoding.AreaAverageResampler`. Nothing is installed process-wide: two managers with different resamplers coexist.
///
/// ```swift
/// let coders = ImageCodersManager(resampler: PixmanResampler())
/// coders.addCoder(PNGCoder())
/// coders.addCoder(MyQOICoder())          // asked before PNGCoder
/// let image = try coders.decode(data, options: .init())
/// ```
///
/// Thread safety: all methods may be called from any thread at once; registration takes effect for decodes that
/// start after it returns.
public final class ImageCodersManager: ProgressiveImageCoder, Sendable {
    private let registered: Mutex<[any ImageCoder]>
    /// The resampler filled into options that name none; nil leaves options as they are.
    public let resampler: (any ImageResampler)?
    /// Converts decodes whose options ask for `.sRGB` (`DecodeOptions.targetColorSpace`); without one, such a
    /// decode of a file that describes colours other than sRGB throws `.unsupportedFormat`.
    public let colorConverter: (any ImageCoding.ColorConverter)?

    /// A manager with `coders`, the last one with the highest priority, that gives `resampler` (when not nil) to
    /// its coders for options without one and converts colours with `colorConverter`.
    public init(
        coders: [any ImageCoder] = [], resampler: (any ImageResampler)? = nil,
        colorConverter: (any ImageCoding.ColorConverter)? = nil
    ) {
        registered = Mutex(coders)
        self.resampler = resampler
        self.colorConverter = colorConverter
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
        let filled = filling(options)
        for coder in coders where coder.canDecode(data) {
            do {
                var image = try coder.decode(data, options: filled)
                if let again = redecoding(image, options: options, filled: filled) {
                    image = try coder.decode(data, options: again)
                }
                return recordingPassed(options, on: try converting(image, to: options))
            } catch  where error.code == .unsupportedFormat {
                continue
            }
        }
        throw ImageError(
            .unsupportedFormat,
            "no registered coder decodes this data (detected format: \(ImageFormat.detect(data)))")
    }

    public func canEncode(to format: ImageFormat) -> Bool {
        coders.contains { $0.canEncode(to: format) }
    }

    /// Encodes with the last-added coder for `format`; `.invalidArgument` first when `options` are out of range
    /// (`EncodeOptions.validate()`).
    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        try options.validate()
        var filled = options
        if filled.resampler == nil { filled.resampler = resampler }
        for coder in coders where coder.canEncode(to: format) {
            do {
                return try coder.encode(image, as: format, options: filled)
            } catch  where error.code == .unsupportedFormat {
                continue
            }
        }
        throw ImageError(.unsupportedFormat, "no registered coder encodes \(format)")
    }

    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        let filled = filling(options)
        for case let coder as any ProgressiveImageCoder in coders where coder.canDecode(header) {
            if let decoder = coder.makeIncrementalDecoder(header: header, options: filled) {
                return fills(options) ? PassedOptionsDecoder(decoder, manager: self, options: options) : decoder
            }
        }
        return nil
    }

    /// A frame-by-frame decoder from the first animated coder that accepts `data`; its frames are resampled with
    /// this manager's resampler when `options` name none.
    public func makeAnimatedDecoder(_ data: Data, options: DecodeOptions) throws(ImageError) -> any AnimatedImageDecoder
    {
        try options.validate()
        let filled = filling(options)
        for case let coder as any AnimatedImageCoder in coders where coder.canDecode(data) {
            do {
                return try coder.makeAnimatedDecoder(data, options: filled)
            } catch  where error.code == .unsupportedFormat {
                continue
            }
        }
        throw ImageError(.unsupportedFormat, "no registered animated coder decodes this data")
    }

    /// Whether this manager changes the options of a coder called with `options` (a resampler filled in, or the
    /// form a colour conversion starts from).
    private func fills(_ options: DecodeOptions) -> Bool {
        (options.resampler == nil && resampler != nil) || options.targetColorSpace != .preserve
    }

    /// `options` with this manager's resampler when they name none; for a colour conversion, with the converter
    /// (for samples only a coder sees, such as CMYK), straight alpha, and the source's depth unless a byte limit
    /// sizes the output (the conversion narrows and premultiplies after).
    private func filling(_ options: DecodeOptions) -> DecodeOptions {
        guard fills(options) else { return options }
        var filled = options
        if filled.resampler == nil { filled.resampler = resampler }
        if options.targetColorSpace != .preserve {
            filled.colorConverter = colorConverter
            filled.premultipliedAlpha = false
            if options.scaleDownLimitBytes == nil { filled.keep16Bit = true }
        }
        return filled
    }

    /// `image` recording `passed` (the caller's options) rather than the options filled in for its coder, so that
    /// it compares equal to what the caller asked for.
    fileprivate func recordingPassed(_ passed: DecodeOptions, on image: Image) -> Image {
        guard fills(passed), image.decodeOptions != nil else { return image }
        return image.with(decodeOptions: passed)
    }
}

/// A coder's incremental decoder whose images record the options the manager's caller passed.
///
/// Thread safety: not thread-safe, like the decoder it wraps.
private final class PassedOptionsDecoder: IncrementalImageDecoder {
    private let decoder: any IncrementalImageDecoder
    private let manager: ImageCodersManager
    private let options: DecodeOptions

    init(_ decoder: any IncrementalImageDecoder, manager: ImageCodersManager, options: DecodeOptions) {
        self.decoder = decoder
        self.manager = manager
        self.options = options
    }

    func append(_ data: Data) throws(ImageError) -> Bool { try decoder.append(data) }

    func currentImage() -> Image? {
        guard let image = decoder.currentImage(), let converted = try? manager.converting(image, to: options) else {
            return nil
        }
        return manager.recordingPassed(options, on: converted)
    }

    func finish() throws(ImageError) -> Image {
        manager.recordingPassed(options, on: try manager.converting(try decoder.finish(), to: options))
    }
}
