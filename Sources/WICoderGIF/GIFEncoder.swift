#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
private import CGIF

/// Encodes RGBA frames as a GIF with giflib: one local palette per frame (exact when the frame's drawn pixels have
/// at most 255 colours, else giflib's median-cut `GifQuantizeBuffer`), only the changed rectangle per frame
/// (`GIFFramePlan`), durations in 1/100 s, and a NETSCAPE2.0 extension unless the animation plays once.
enum GIFEncoder {
    static func encode(_ image: Image, options: EncodeOptions) throws(ImageError) -> Data {
        var frames = options.firstFrameOnly ? [try image.frame(at: 0)] : try image.frames
        for index in frames.indices {
            try WorkerPool.checkCancellation()
            var pixels = frames[index].pixels
            if let box = options.maxPixelSize {
                let target = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
                if target != pixels.size { pixels = try options.effectiveResampler.resample(pixels, to: target) }
            }
            frames[index].pixels = try pixels.converted(to: .rgba8)
        }
        let width = frames[0].pixels.width
        let height = frames[0].pixels.height
        guard width <= 65535, height <= 65535 else {
            throw ImageError(.encodingFailed, "GIF: \(width)x\(height) is larger than GIF's 65535x65535")
        }
        let plans = GIFFramePlan.plan(
            frames.map { GIFFramePlan.binaryPixels($0.pixels) },
            durations: frames.map(\.duration), width: width, height: height)
        let writer = try GIFWriter()
        try writer.check(EGifPutScreenDesc(writer.gif, Int32(width), Int32(height), 8, 0, nil), "screen descriptor")
        if frames.count > 1 && image.loopCount != 1 {
            // Loop count L plays L times: NETSCAPE2.0 stores the repetitions after the first (0 = forever).
            try writer.putLoopExtension(image.loopCount == 0 ? 0 : Swift.min(65535, image.loopCount - 1))
        }
        for plan in plans { try writer.put(plan, animated: frames.count > 1) }
        return try writer.finish()
    }
}

/// Owns one giflib encoder (`GifFileType`) writing into memory; closed in `finish()` or deinit.
private final class GIFWriter {
    private(set) var gif: UnsafeMutablePointer<GifFileType>!
    private let sink = Sink()

    final class Sink {
        var bytes: [UInt8] = []
    }

    init() throws(ImageError) {
        var error: Int32 = 0
        let writer: OutputFunc = { gif, bytes, count in
            guard let gif, let bytes, count > 0, let user = gif.pointee.UserData else { return 0 }
            Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().bytes.append(
                contentsOf: UnsafeBufferPointer(start: bytes, count: Int(count)))
            return count
        }
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), writer, &error) else {
            throw GIFErrors.error(error, context: "encode")
        }
        self.gif = gif
        EGifSetGifVersion(gif, true)
    }

    deinit {
        if let gif {
            var error: Int32 = 0
            _ = EGifCloseFile(gif, &error)
        }
    }

    func check(_ status: Int32, _ what: String) throws(ImageError) {
        guard status == GIF_OK else { throw GIFErrors.error(gif.pointee.Error, context: "encode (\(what))") }
    }

    func putLoopExtension(_ repetitions: Int) throws(ImageError) {
        let identifier = Array("NETSCAPE2.0".utf8)
        let value: [UInt8] = [1, UInt8(repetitions & 0xFF), UInt8(repetitions >> 8)]
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "loop extension")
        try check(
            identifier.withUnsafeBufferPointer { EGifPutExtensionBlock(gif, 11, $0.baseAddress) }, "loop extension")
        try check(value.withUnsafeBufferPointer { EGifPutExtensionBlock(gif, 3, $0.baseAddress) }, "loop extension")
        try check(EGifPutExtensionTrailer(gif), "loop extension")
    }

    func put(_ plan: GIFFramePlan, animated: Bool) throws(ImageError) {
        var (palette, indices) = try Self.palette(for: plan.colors)
        let transparent = plan.drawn.contains(false) ? palette.count : nil
        if transparent != nil { palette.append(GifColorType(Red: 0, Green: 0, Blue: 0)) }
        var bits = 1
        while 1 << bits < palette.count { bits += 1 }
        palette += [GifColorType](
            repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: (1 << bits) - palette.count)
        if animated || transparent != nil {
            let packed = UInt8(plan.disposal << 2) | (transparent == nil ? 0 : 1)
            let control: [UInt8] = [
                packed, UInt8(plan.delayCentiseconds & 0xFF), UInt8(plan.delayCentiseconds >> 8),
                UInt8(transparent ?? 0),
            ]
            try check(
                control.withUnsafeBufferPointer { EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, $0.baseAddress) },
                "graphic control")
        }
        guard let map = palette.withUnsafeMutableBufferPointer({ GifMakeMapObject(Int32($0.count), $0.baseAddress) })
        else {
            throw ImageError(.outOfMemory, "GIF encode: cannot allocate a colour map")
        }
        defer { GifFreeMapObject(map) }
        try check(
            EGifPutImageDesc(gif, Int32(plan.x), Int32(plan.y), Int32(plan.width), Int32(plan.height), false, map),
            "image descriptor")
        var line = [GifPixelType](repeating: 0, count: plan.width)
        var next = 0
        for row in 0..<plan.height {
            for column in 0..<plan.width {
                if plan.drawn[row * plan.width + column] {
                    line[column] = indices[next]
                    next += 1
                } else {
                    line[column] = UInt8(transparent ?? 0)
                }
            }
            try check(
                line.withUnsafeMutableBufferPointer { EGifPutLine(gif, $0.baseAddress, Int32(plan.width)) }, "pixels")
        }
    }

    /// The palette (at most 255 entries, one left for transparency) and each colour's index: exact when the colours
    /// fit, else giflib's median-cut quantizer.
    private static func palette(for colors: [UInt32]) throws(ImageError) -> ([GifColorType], [UInt8]) {
        var lookup: [UInt32: UInt8] = [:]
        var palette: [GifColorType] = []
        var indices: [UInt8] = []
        indices.reserveCapacity(colors.count)
        for color in colors {
            if let index = lookup[color] {
                indices.append(index)
                continue
            }
            guard palette.count < 255 else { return try quantized(colors) }
            lookup[color] = UInt8(palette.count)
            indices.append(UInt8(palette.count))
            palette.append(
                GifColorType(Red: UInt8(color & 0xFF), Green: UInt8(color >> 8 & 0xFF), Blue: UInt8(color >> 16 & 0xFF))
            )
        }
        return (palette, indices)
    }

    private static func quantized(_ colors: [UInt32]) throws(ImageError) -> ([GifColorType], [UInt8]) {
        var red = colors.map { UInt8($0 & 0xFF) }
        var green = colors.map { UInt8($0 >> 8 & 0xFF) }
        var blue = colors.map { UInt8($0 >> 16 & 0xFF) }
        var indices = [UInt8](repeating: 0, count: colors.count)
        var palette = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        var size: Int32 = 255
        let status = GifQuantizeBuffer(UInt32(colors.count), 1, &size, &red, &green, &blue, &indices, &palette)
        guard status == GIF_OK, size > 0 else {
            throw ImageError(.outOfMemory, "GIF encode: the colour quantizer failed")
        }
        return (Array(palette.prefix(Int(size))), indices)
    }

    /// Closes the file (writing the trailer) and returns its bytes.
    func finish() throws(ImageError) -> Data {
        var error: Int32 = 0
        let status = EGifCloseFile(gif, &error)
        gif = nil
        guard status == GIF_OK else { throw GIFErrors.error(error, context: "encode (close)") }
        return Data(sink.bytes)
    }
}
