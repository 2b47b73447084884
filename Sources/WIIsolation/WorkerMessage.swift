#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// The two messages between the service and a decode worker, as bytes in shared memory: a request (decode
/// options, then the source bytes) and a reply (the image's description and metadata, then every frame's pixels;
/// or an error). Only the descriptor and the total length cross the socket.
///
/// Layout of either: the description's length (8 bytes), the description (`MessageWriter` fields), the payload.
enum WorkerMessage {
    static let magic: UInt32 = 0x5749_4457  // "WIDW"
    static let version: UInt16 = 3  // 3: the vector viewport

    /// The request for `data` with `options` (the resampler stays behind: workers use the default).
    static func request(_ data: Data, options: DecodeOptions) throws(ImageError) -> SharedMemory {
        var description = MessageWriter()
        description.u32(magic)
        description.u16(version)
        description.i64(options.thumbnailPixelSize?.width ?? -1)
        description.i64(options.thumbnailPixelSize?.height ?? -1)
        description.bool(options.preserveAspectRatio)
        description.f64(options.scaleFactor)
        description.bool(options.firstFrameOnly)
        description.i64(options.scaleDownLimitBytes ?? -1)
        description.bool(options.keep16Bit)
        description.bool(options.premultipliedAlpha)
        description.bool(options.applyOrientation)
        description.i64(options.pixelLimit)
        description.i64(options.frameLimit)
        description.i64(options.frameBufferLimitBytes)
        description.bool(options.targetColorSpace == .sRGB)
        description.i64(options.vectorViewport?.width ?? -1)
        description.i64(options.vectorViewport?.height ?? -1)
        return try pack(description.bytes, payload: [data.count]) { _, target in
            data.withUnsafeBytes { target.copyMemory(from: $0.baseAddress!, byteCount: data.count) }
        }
    }

    /// The source bytes and options of a request.
    static func readRequest(_ memory: SharedMemory) throws(ImageError) -> (Data, DecodeOptions) {
        var reader = try MessageReader(memory)
        guard try reader.u32() == magic, try reader.u16() == version else {
            throw ImageError(.badImageData, "not a decode request of this version")
        }
        let width = try reader.i64()
        let height = try reader.i64()
        var options = DecodeOptions()
        if width >= 0, height >= 0 { options.thumbnailPixelSize = PixelSize(width: width, height: height) }
        options.preserveAspectRatio = try reader.bool()
        options.scaleFactor = try reader.f64()
        options.firstFrameOnly = try reader.bool()
        let scaleDown = try reader.i64()
        options.scaleDownLimitBytes = scaleDown >= 0 ? scaleDown : nil
        options.keep16Bit = try reader.bool()
        options.premultipliedAlpha = try reader.bool()
        options.applyOrientation = try reader.bool()
        options.pixelLimit = try reader.i64()
        options.frameLimit = try reader.i64()
        options.frameBufferLimitBytes = try reader.i64()
        options.targetColorSpace = try reader.bool() ? .sRGB : .preserve
        let viewportWidth = try reader.i64()
        let viewportHeight = try reader.i64()
        if viewportWidth >= 0, viewportHeight >= 0 {
            options.vectorViewport = PixelSize(width: viewportWidth, height: viewportHeight)
        }
        // Every frame crosses to the service: decoded up front, each counted against the pixel limit.
        options.preloadAllFrames = true
        let (source, count) = try reader.rest()
        return (Data(bytes: source, count: count), options)
    }

    /// The reply for a decoded `image`: its frames' pixels after the description.
    static func reply(_ image: Image) throws(ImageError) -> SharedMemory {
        let frames = try image.frames
        var description = MessageWriter()
        description.u32(magic)
        description.u8(0)
        description.string(image.format.identifier)
        description.string(image.format.mimeType)
        description.string(image.format.fileExtension)
        description.i64(image.loopCount)
        description.f64(image.scale)
        description.u8(UInt8(image.orientation.rawValue))
        description.i64(image.flags.rawValue)
        for block in [image.metadata.iccProfile, image.metadata.exif, image.metadata.xmp] {
            description.optionalBytes(block)
        }
        description.i64(image.metadata.cursorHotspot?.x ?? -1)
        description.i64(image.metadata.cursorHotspot?.y ?? -1)
        description.colorDescription(image.metadata.colorDescription)
        description.i64(frames.count)
        for frame in frames {
            description.i64(frame.pixels.width)
            description.i64(frame.pixels.height)
            description.u8(PixelFormatCode.code(frame.pixels.format))
            description.i64(frame.pixels.bytesPerRow)
            description.f64(frame.duration)
        }
        let sizes = frames.map { $0.pixels.bytesPerRow * $0.pixels.height }
        return try pack(description.bytes, payload: sizes) { index, target in
            frames[index].pixels.withUnsafeBytes { target.copyMemory(from: $0.baseAddress!, byteCount: sizes[index]) }
        }
    }

    /// The reply for a failed decode: the error's code and message.
    static func reply(_ error: ImageError) throws(ImageError) -> SharedMemory {
        var description = MessageWriter()
        description.u32(magic)
        description.u8(1)
        description.i64(error.code.rawValue)
        description.string(error.message)
        return try pack(description.bytes, payload: []) { _, _ in }
    }

    /// The image a reply describes, or the error it carries.
    static func readReply(_ memory: SharedMemory, options: DecodeOptions) throws(ImageError) -> Image {
        var reader = try MessageReader(memory)
        guard try reader.u32() == magic else { throw ImageError(.badImageData, "not a decode reply") }
        if try reader.u8() == 1 {
            let code = ImageError.Code(rawValue: try reader.i64())
            throw ImageError(code, try reader.string())
        }
        let format = ImageFormat(try reader.string(), mimeType: try reader.string(), fileExtension: try reader.string())
        let loopCount = try reader.i64()
        let scale = try reader.f64()
        let orientation = ImageOrientation(rawValue: Int(try reader.u8())) ?? .up
        let flags = Image.Flags(rawValue: try reader.i64())
        var metadata = ImageMetadata(
            iccProfile: try reader.optionalBytes(), exif: try reader.optionalBytes(),
            xmp: try reader.optionalBytes())
        let hotspotX = try reader.i64()
        let hotspotY = try reader.i64()
        if hotspotX >= 0, hotspotY >= 0 { metadata.cursorHotspot = ImageCoding.PixelPoint(x: hotspotX, y: hotspotY) }
        metadata.colorDescription = try reader.colorDescription()
        let count = try reader.i64()
        guard count >= 1, count <= max(1, options.frameLimit == .max ? 1 << 20 : options.frameLimit) else {
            throw ImageError(.badImageData, "the worker replied with \(count) frames")
        }
        var layouts: [(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int, duration: Double)] = []
        for _ in 0..<count {
            let width = try reader.i64()
            let height = try reader.i64()
            guard let format = PixelFormatCode.format(try reader.u8()) else {
                throw ImageError(.badImageData, "unknown pixel format")
            }
            layouts.append((width, height, format, try reader.i64(), try reader.f64()))
        }
        var frames: [ImageFrame] = []
        frames.reserveCapacity(layouts.count)
        var pixelCount = 0
        for layout in layouts {
            try WorkerPool.checkCancellation()
            let (area, overflow) = layout.width.multipliedReportingOverflow(by: layout.height)
            pixelCount += overflow ? Int.max / 2 : area
            guard !overflow, pixelCount <= options.pixelLimit, layout.width > 0, layout.height > 0,
                layout.bytesPerRow >= layout.width * layout.format.bytesPerPixel, layout.bytesPerRow <= 1 << 30
            else {
                throw ImageError(.badImageData, "the worker replied with a frame of \(layout.width)x\(layout.height)")
            }
            let size = layout.bytesPerRow * layout.height
            let source = try reader.payload(size)
            let pixels = try PixelBuffer(
                width: layout.width, height: layout.height, format: layout.format,
                bytesPerRow: layout.bytesPerRow, zeroed: false)
            pixels.storage.bytes.copyMemory(from: source, byteCount: size)
            frames.append(ImageFrame(pixels: pixels, duration: layout.duration))
        }
        return Image(
            frames: frames, loopCount: loopCount, format: format, scale: scale, orientation: orientation,
            flags: flags, decodeOptions: options, metadata: metadata)
    }

    /// Shared memory holding the description's length, the description, then the payload parts of `sizes`,
    /// each written by `fill` (part index, where it goes).
    private static func pack(
        _ description: [UInt8], payload sizes: [Int],
        fill: (Int, UnsafeMutableRawPointer) -> Void
    ) throws(ImageError) -> SharedMemory {
        var total = 8 + description.count
        for size in sizes {
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow else { throw ImageError(.outOfMemory, "a worker message would overflow") }
            total = sum
        }
        let memory = try SharedMemory(count: total, name: "wi-decode")
        withUnsafeBytes(of: UInt64(description.count).littleEndian) {
            memory.bytes.copyMemory(from: $0.baseAddress!, byteCount: 8)
        }
        description.withUnsafeBytes {
            (memory.bytes + 8).copyMemory(from: $0.baseAddress!, byteCount: description.count)
        }
        var offset = 8 + description.count
        for (index, size) in sizes.enumerated() {
            fill(index, memory.bytes + offset)
            offset += size
        }
        return memory
    }
}

/// The wire codes of pixel formats.
enum PixelFormatCode {
    static func code(_ format: PixelFormat) -> UInt8 {
        switch format {
        case .rgba8: 0
        case .premultipliedRGBA8: 1
        case .rgba16: 2
        case .premultipliedRGBA16: 3
        }
    }

    static func format(_ code: UInt8) -> PixelFormat? {
        PixelFormat.allCases.first { Self.code($0) == code }
    }
}

/// Appends little-endian fields to a description.
struct MessageWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func i64(_ value: Int) { withUnsafeBytes(of: Int64(value).littleEndian) { bytes += $0 } }
    mutating func f64(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
    mutating func string(_ value: String) { optionalBytes(Data(value.utf8)) }
    mutating func optionalBytes(_ value: Data?) {
        guard let value else { return i64(-1) }
        i64(value.count)
        bytes += value
    }
}

/// Reads a message's description and payload from shared memory, every length checked against the block.
struct MessageReader {
    private let memory: SharedMemory
    private(set) var offset: Int
    private let descriptionEnd: Int

    init(_ memory: SharedMemory) throws(ImageError) {
        self.memory = memory
        guard memory.count >= 8 else { throw ImageError(.badImageData, "a worker message is too short") }
        let length = Int(UInt64(littleEndian: memory.bytes.loadUnaligned(as: UInt64.self)))
        guard length >= 0, length <= memory.count - 8 else {
            throw ImageError(.badImageData, "a worker message is too short")
        }
        offset = 8
        descriptionEnd = 8 + length
    }

    private mutating func take(_ count: Int, limit: Int) throws(ImageError) -> UnsafeRawPointer {
        guard count >= 0, count <= limit - offset else {
            throw ImageError(.badImageData, "a worker message is truncated")
        }
        defer { offset += count }
        return UnsafeRawPointer(memory.bytes + offset)
    }

    mutating func u8() throws(ImageError) -> UInt8 { try take(1, limit: descriptionEnd).load(as: UInt8.self) }
    mutating func bool() throws(ImageError) -> Bool { try u8() != 0 }
    mutating func u16() throws(ImageError) -> UInt16 {
        UInt16(littleEndian: try take(2, limit: descriptionEnd).loadUnaligned(as: UInt16.self))
    }
    mutating func u32() throws(ImageError) -> UInt32 {
        UInt32(littleEndian: try take(4, limit: descriptionEnd).loadUnaligned(as: UInt32.self))
    }
    mutating func i64() throws(ImageError) -> Int {
        Int(Int64(littleEndian: try take(8, limit: descriptionEnd).loadUnaligned(as: Int64.self)))
    }
    mutating func f64() throws(ImageError) -> Double {
        Double(bitPattern: UInt64(littleEndian: try take(8, limit: descriptionEnd).loadUnaligned(as: UInt64.self)))
    }
    mutating func optionalBytes() throws(ImageError) -> Data? {
        let count = try i64()
        guard count >= 0 else { return nil }
        return Data(bytes: try take(count, limit: descriptionEnd), count: count)
    }
    mutating func string() throws(ImageError) -> String {
        String(decoding: try optionalBytes() ?? Data(), as: UTF8.self)
    }

    /// Everything after the description.
    mutating func rest() throws(ImageError) -> (UnsafeRawPointer, Int) {
        if offset < descriptionEnd { offset = descriptionEnd }
        let count = memory.count - offset
        return (try take(count, limit: memory.count), count)
    }

    /// The next `count` bytes after the description.
    mutating func payload(_ count: Int) throws(ImageError) -> UnsafeRawPointer {
        if offset < descriptionEnd { offset = descriptionEnd }
        return try take(count, limit: memory.count)
    }
}
