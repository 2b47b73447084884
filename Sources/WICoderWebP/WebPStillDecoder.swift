import WICore
internal import CWebP

/// One-shot decode of a still WebP (lossy, lossless, with alpha, VP8X) straight into our pixel buffer, scaled by
/// libwebp itself when a thumbnail is asked for.
enum WebPStillDecoder {
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
        let orientation = metadata.exif.flatMap(ExifReader.orientation(in:)) ?? .up
        let plan = WebPOutputPlan(stored: stored, orientation: orientation, options: options)
        var buffer = try plan.makeBuffer(zeroed: false)
        let rowBytes = buffer.bytesPerRow
        let status = try buffer.withUnsafeMutableBytes { memory in
            plan.configure(&config, memory: memory, bytesPerRow: rowBytes)
            defer { WebPFreeDecBuffer(&config.output) }
            return WebPDecode(input, container.bytes.count, &config)
        }
        try WebPStatus.check(status, "decode")
        let finished = try options.finish(buffer, orientation: orientation, fullSize: stored)
        return Image(pixels: finished.pixels, format: .webp, scale: options.scaleFactor,
                     orientation: finished.orientation, flags: finished.isThumbnail ? .thumbnail : [],
                     decodeOptions: options, metadata: metadata)
    }
}
