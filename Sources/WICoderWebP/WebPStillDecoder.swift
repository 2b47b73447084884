import WICore
import WICoderSupport
internal import CWebP

/// One-shot decode of a still WebP (lossy, lossless, with alpha, VP8X) straight into our pixel buffer, scaled by
/// libwebp itself when a thumbnail is asked for.
enum WebPStillDecoder {
    /// Bytes given to libwebp between two looks at the cancellation (a few milliseconds of lossy decoding).
    static let step = 64 << 10

    static func decode(_ container: WebPContainer, options: DecodeOptions) throws(ImageError) -> Image {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw ImageError(.badImageData, "WebP: libwebp rejected its decoder configuration (ABI mismatch)")
        }
        let input = container.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        try WebPStatus.check(WebPGetFeatures(input, container.bytes.count, &config.input), "header")
        let stored = PixelSize(width: Int(config.input.width), height: Int(config.input.height))
        try options.checkPixelLimit(stored)
        let metadata = container.metadata
        let orientation = metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) ?? .up
        let plan = WebPOutputPlan(stored: stored, orientation: orientation, options: options)
        var buffer = try plan.makeBuffer(zeroed: false)
        let rowBytes = buffer.bytesPerRow
        let total = container.bytes.count
        let status = try buffer.withUnsafeMutableBytes { (memory) throws(ImageError) -> VP8StatusCode in
            plan.configure(&config, memory: memory, bytesPerRow: rowBytes)
            defer { WebPFreeDecBuffer(&config.output) }
            // libwebp's incremental decoder over ever longer prefixes of the bytes (they are all here): the same
            // pixels as one WebPDecode, and the pool job's cancellation is checked between prefixes.
            guard let decoder = WebPIDecode(nil, 0, &config) else {
                throw ImageError(.outOfMemory, "WebP: cannot create libwebp's decoder")
            }
            defer { WebPIDelete(decoder) }
            var fed = 0
            var status = VP8_STATUS_SUSPENDED
            while fed < total, status == VP8_STATUS_SUSPENDED {
                try WorkerPool.checkCancellation()
                fed = min(total, fed + Self.step)
                status = WebPIUpdate(decoder, input, fed)
            }
            // Every byte given and still wanting more: the file is cut short (as WebPDecode says it).
            return status == VP8_STATUS_SUSPENDED ? VP8_STATUS_NOT_ENOUGH_DATA : status
        }
        try WebPStatus.check(status, "decode")
        // A lossy WebP without an ALPH chunk has no alpha: libwebp writes 255 everywhere, so `hasAlpha` and a
        // resize's premultiplication need not scan the pixels. (A lossless one's "alpha is used" bit is only a hint.)
        let opaque = config.input.format == 1 && config.input.has_alpha == 0
        buffer.isKnownOpaque = opaque
        let finished = try options.finish(buffer, orientation: orientation, fullSize: stored)
        var pixels = finished.pixels
        pixels.isKnownOpaque = opaque
        return Image(
            pixels: pixels, format: .webp, scale: options.scaleFactor,
            orientation: finished.orientation, flags: finished.isThumbnail ? .thumbnail : [],
            decodeOptions: options, metadata: metadata)
    }
}
