#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Encodes an animation as APNG: libpng compresses each frame (the whole canvas for the first, only the changed
/// rectangle after that, dispose NONE and blend SOURCE so pixels, alpha included, are replaced exactly), and the
/// zlib data moves into IDAT (first frame) and fdAT chunks behind acTL/fcTL. Every frame shares the smallest
/// layout that holds all of them; animations are written with 8 bits per component. Delays are in milliseconds
/// (fcTL delay_den 1000); num_plays is the image's loop count.
enum APNGEncoder {
    static func encode(_ image: Image, options: EncodeOptions, compressionLevel: Int) throws(ImageError) -> Data {
        var frames: [PixelBuffer] = []
        for frame in try image.frames {
            var pixels = frame.pixels
            if let box = options.maxPixelSize {
                let target = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
                if target != pixels.size { pixels = try options.effectiveResampler.resample(pixels, to: target) }
            }
            frames.append(try pixels.converted(to: .rgba8))
        }
        let layouts = frames.map(PNGLayout.smallest(for:))
        let gray = layouts.allSatisfy { $0 == .gray || $0 == .grayAlpha }
        let opaque = layouts.allSatisfy { $0 == .gray || $0 == .rgb }
        let layout: PNGLayout = gray ? (opaque ? .gray : .grayAlpha) : (opaque ? .rgb : .rgba)

        var output = Data([137, 80, 78, 71, 13, 10, 26, 10])
        var sequence = 0
        var previous: [UInt32]?
        for (index, pixels) in frames.enumerated() {
            try WorkerPool.checkCancellation()
            let current = Self.words(pixels)
            let rect =
                previous.map { Self.changedRect(from: $0, to: current, width: pixels.width) }
                ?? (0, 0, pixels.width, pixels.height)
            let icc = index == 0 ? image.metadata.iccProfile.flatMap { layout.accepts(profile: $0) ? $0 : nil } : nil
            let png = try PNGCoder.write(
                try layout.pack(try Self.crop(pixels, rect)), layout: layout, bitDepth: 8,
                level: compressionLevel, icc: icc, exif: nil)
            let chunks = PNGChunkList(png)
            if index == 0 {
                for chunk in chunks.all where chunk.type != "IDAT" && chunk.type != "IEND" {
                    output.append(chunk.bytes)
                    if chunk.type == "IHDR" {
                        APNGAnimation.appendChunk(
                            "acTL",
                            APNGAnimation.bigEndian(UInt32(frames.count))
                                + APNGAnimation.bigEndian(UInt32(max(0, image.loopCount))), to: &output)
                    }
                }
            }
            let delay = UInt16(min(65535, max(0, Int((image.duration(at: index) * 1000).rounded()))))
            var control = APNGAnimation.bigEndian(UInt32(sequence))
            for value in [rect.2, rect.3, rect.0, rect.1] { control += APNGAnimation.bigEndian(UInt32(value)) }
            // delay/1000, dispose NONE, blend SOURCE
            control += [UInt8(delay >> 8), UInt8(delay & 0xFF), 0x03, 0xE8, 0, 0]
            APNGAnimation.appendChunk("fcTL", control, to: &output)
            sequence += 1
            for chunk in chunks.all where chunk.type == "IDAT" {
                if index == 0 {
                    output.append(chunk.bytes)
                } else {
                    APNGAnimation.appendChunk(
                        "fdAT", APNGAnimation.bigEndian(UInt32(sequence)) + chunk.body, to: &output)
                    sequence += 1
                }
            }
            previous = current
        }
        APNGAnimation.appendChunk("IEND", [], to: &output)
        return output
    }

    private static func words(_ pixels: PixelBuffer) -> [UInt32] {
        let bytes = pixels.packedBytes()
        return bytes.withUnsafeBytes { raw in
            (0..<(bytes.count / 4)).map { raw.load(fromByteOffset: $0 * 4, as: UInt32.self) }
        }
    }

    /// The bounding box (x, y, width, height) of the pixels that differ; 1x1 at the origin when none does.
    private static func changedRect(from old: [UInt32], to new: [UInt32], width: Int) -> (Int, Int, Int, Int) {
        var minX = Int.max
        var minY = Int.max
        var maxX = -1
        var maxY = -1
        for p in 0..<new.count where new[p] != old[p] {
            let x = p % width
            let y = p / width
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
        }
        return maxX < 0 ? (0, 0, 1, 1) : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    private static func crop(_ pixels: PixelBuffer, _ rect: (Int, Int, Int, Int)) throws(ImageError) -> PixelBuffer {
        if rect == (0, 0, pixels.width, pixels.height) { return pixels }
        var out = try PixelBuffer(width: rect.2, height: rect.3, format: .rgba8)
        let rowBytes = out.bytesPerRow
        try out.withUnsafeMutableBytes { target in
            pixels.withUnsafeBytes { source in
                for row in 0..<rect.3 {
                    (target.baseAddress! + row * rowBytes).copyMemory(
                        from: source.baseAddress! + (rect.1 + row) * pixels.bytesPerRow + rect.0 * 4,
                        byteCount: rect.2 * 4)
                }
            }
        }
        return out
    }
}

/// The chunks of a well-formed PNG this package wrote.
struct PNGChunkList {
    struct Chunk {
        var type: String
        /// Length, type, data and CRC.
        var bytes: Data
        var body: [UInt8]
    }

    let all: [Chunk]

    init(_ png: Data) {
        let p = [UInt8](png)
        var chunks: [Chunk] = []
        var offset = 8
        while offset + 12 <= p.count {
            let length = p[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard offset + 12 + length <= p.count else { break }
            chunks.append(
                Chunk(
                    type: String(decoding: p[offset + 4..<offset + 8], as: UTF8.self),
                    bytes: Data(p[offset..<offset + 12 + length]), body: Array(p[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
        all = chunks
    }
}
