import Foundation
import Synchronization
import WICore

/// A coder for tests: accepts data starting with its `magic` bytes and decodes it to a solid 1x1 image whose red
/// component is `marker`, counting every call. Optionally throws a fixed error instead.
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

    public var decodingFormats: [ImageFormat] { [ImageFormat("mock-\(marker)", mimeType: "image/x-mock", fileExtension: "mock")] }

    public func canDecode(_ data: Data) -> Bool { data.starts(with: magic) }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        counters.withLock { $0.decodes += 1 }
        if let failure { throw failure }
        let pixels = try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [marker, 0, 0, 255])
        return Image(pixels: pixels, format: decodingFormats[0], decodeOptions: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == decodingFormats[0] }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        counters.withLock { $0.encodes += 1 }
        if let failure { throw failure }
        return magic + Data([marker])
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
