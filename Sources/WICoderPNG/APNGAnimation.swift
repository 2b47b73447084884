#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICoderSupport

/// Decodes APNG frames with libpng: each frame becomes a standalone PNG stream (signature, IHDR with the frame's
/// size, the file's PLTE and tRNS, one IDAT holding the frame's IDAT or fdAT data, IEND; CRCs computed) that goes
/// through the same decoder as still PNGs. Frames come out RGBA8 (16-bit samples stripped to 8 bits).
///
/// Thread safety: immutable; safe from any thread.
struct APNGAnimation: ImageCoding.AnimationFrameSource {
    let data: Data
    let structure: APNGStructure
    let pixelLimit: Int

    func pixels(ofFrame index: Int) throws(ImageError) -> PixelBuffer {
        let stream = standaloneStream(for: structure.frames[index])
        let handle = try PNGDecoderHandle(options: DecodeOptions(pixelLimit: pixelLimit))
        try handle.decode(stream)
        return try handle.finalImage().pixels
    }

    /// The file's iCCP profile and eXIf block: libpng reads them from a stream that stops at the first IDAT's
    /// header (its info callback runs there), so no pixels are decoded. Empty when they are damaged.
    func metadata() -> ImageMetadata {
        guard !structure.metadataChunks.isEmpty,
            let handle = try? PNGDecoderHandle(options: DecodeOptions(pixelLimit: pixelLimit))
        else { return ImageMetadata() }
        var header = structure.header
        header.replaceSubrange(0..<8, with: [0, 0, 0, 1, 0, 0, 0, 1])  // 1x1: libpng allocates its buffer there
        var stream = Data([137, 80, 78, 71, 13, 10, 26, 10])
        Self.appendChunk("IHDR", header, to: &stream)
        for chunk in structure.sharedChunks + structure.metadataChunks { stream.append(contentsOf: chunk) }
        stream.append(contentsOf: [0, 0, 0, 1] + Array("IDAT".utf8))
        return (try? handle.feed(stream)).map { handle.metadata } ?? ImageMetadata()
    }

    /// The PNG stream for one frame.
    func standaloneStream(for frame: APNGStructure.Frame) -> Data {
        var header = structure.header
        for (offset, value) in [(0, frame.info.width), (4, frame.info.height)] {
            for i in 0..<4 { header[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
        }
        var stream = Data([137, 80, 78, 71, 13, 10, 26, 10])
        stream.reserveCapacity(frame.data.reduce(128) { $0 + $1.count })
        Self.appendChunk("IHDR", header, to: &stream)
        for chunk in structure.sharedChunks { stream.append(contentsOf: chunk) }
        var compressed: [UInt8] = []
        for range in frame.data {
            compressed += data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)]
        }
        Self.appendChunk("IDAT", compressed, to: &stream)
        Self.appendChunk("IEND", [], to: &stream)
        return stream
    }

    /// Appends a chunk: length, type, data, CRC of type and data.
    static func appendChunk(_ type: String, _ body: [UInt8], to stream: inout Data) {
        let typeBytes = Array(type.utf8)
        stream.append(contentsOf: bigEndian(UInt32(body.count)))
        stream.append(contentsOf: typeBytes)
        stream.append(contentsOf: body)
        stream.append(contentsOf: bigEndian(CRC32.checksum(typeBytes + body)))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
