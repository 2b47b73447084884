import Foundation
import Synchronization
import WICore

/// A coder for tests: accepts data starting with its `magic` bytes and decodes it to a solid image whose red
/// component is `marker`, counting every call. The size is 1x1, or the one written by `data(width:height:)`;
/// decode options (thumbnail, byte limit, alpha form) are honoured through `DecodeOptions.finish`. Optionally
/// throws a fixed error instead.
///
/// Thread safety: counters are under a lock; safe to call from many tasks at once.
public final class MockCoder: ProgressiveImageCoder, Sendable {
    public let magic: Data
    public let marker: UInt8
    public let failure: ImageError?
    private let counters = Mutex((decodes: 0, encodes: 0))

    public init(magic: String, marker: UInt8, failure: ImageError? = nil) {
        self.magic = Data(magic.utf8)
        self.marker = marker
        self.failure = failure
    }

    /// How many times `decode` ran.
    public var decodeCount: Int { counters.withLock { $0.decodes } }
    /// How many times `encode` ran.
    public var encodeCount: Int { counters.withLock { $0.encodes } }

    /// Bytes this coder decodes to a `width` x `height` image: magic, "SIZE", then both as big-endian UInt32
    /// (`extra` makes distinct files of one size).
    public func data(width: Int, height: Int, extra: String = "") -> Data {
        func be(_ v: Int) -> [UInt8] {
            [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        }
        return magic + Data("SIZE".utf8) + Data(be(width) + be(height)) + Data(extra.utf8)
    }

    public var decodingFormats: [ImageFormat] {
        [ImageFormat("mock-\(marker)", mimeType: "image/x-mock", fileExtension: "mock")]
    }

    public func canDecode(_ data: Data) -> Bool { data.starts(with: magic) }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        counters.withLock { $0.decodes += 1 }
        if let failure { throw failure }
        guard data.starts(with: magic) else { throw ImageError(.badImageData, "not mock image data") }
        var size = PixelSize(width: 1, height: 1)
        let tail = [UInt8](data.dropFirst(magic.count).prefix(12))
        if tail.count == 12, tail.starts(with: Array("SIZE".utf8)) {
            func be(_ i: Int) -> Int {
                Int(tail[i]) << 24 | Int(tail[i + 1]) << 16 | Int(tail[i + 2]) << 8 | Int(tail[i + 3])
            }
            size = PixelSize(width: be(4), height: be(8))
            guard size.width > 0, size.height > 0 else { throw ImageError(.badImageData, "mock image with zero size") }
        }
        try options.checkPixelLimit(size)
        // Like a codec with a reduced decode, produce the target size directly (a solid image resamples to itself).
        let output = options.targetSize(for: size) ?? size
        var pixels = try PixelBuffer(width: output.width, height: output.height, format: .rgba8, zeroed: false)
        let marker = self.marker
        try pixels.withUnsafeMutableBytes { bytes in
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = marker
                bytes[i + 1] = 0
                bytes[i + 2] = 0
                bytes[i + 3] = 255
            }
        }
        let finished = try options.finish(pixels, orientation: .up, fullSize: size)
        return Image(
            pixels: finished.pixels, format: decodingFormats[0], scale: options.scaleFactor,
            flags: finished.isThumbnail ? .thumbnail : [], decodeOptions: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == decodingFormats[0] }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        counters.withLock { $0.encodes += 1 }
        if let failure { throw failure }
        return data(width: image.width, height: image.height)  // decodes back to the same size
    }

    public func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        canDecode(header) ? MockIncrementalDecoder(coder: self, options: options) : nil
    }
}

/// The incremental side of `MockCoder`: collects bytes and decodes them at `finish`.
final class MockIncrementalDecoder: IncrementalImageDecoder {
    private let coder: MockCoder
    private let options: DecodeOptions
    private var data = Data()

    init(coder: MockCoder, options: DecodeOptions) {
        self.coder = coder
        self.options = options
    }

    func append(_ data: Data) throws(ImageError) -> Bool {
        self.data += data
        return false
    }

    func currentImage() -> Image? { nil }

    func finish() throws(ImageError) -> Image { try coder.decode(data, options: options) }
}
