import WICore

/// Places straight-alpha pixels over a solid colour on a canvas: `fill()`'s background and the painted corners of
/// `round_corner()`. Swift loops over RGBA8 rows (WITransform has no public "over a colour" operation).
enum Compositing {
    /// `image`'s frames, each drawn over `color` on a canvas of `canvas` (nil: the frame's size), centred.
    static func over(_ color: RGBAColor, image: Image, canvas: PixelSize?) throws(ImageError) -> Image {
        try image.mappingFrames { (pixels) throws(ImageError) in
            try over(color, pixels: pixels, canvas: canvas ?? pixels.size)
        }
    }

    /// `pixels` (any format, converted to RGBA8) over `color`, centred on a `canvas`-sized buffer.
    static func over(_ color: RGBAColor, pixels: PixelBuffer, canvas: PixelSize) throws(ImageError) -> PixelBuffer {
        let source = try pixels.converted(to: .rgba8)
        var output = try PixelBuffer(width: canvas.width, height: canvas.height, format: .rgba8, zeroed: false)
        let originX = (canvas.width - source.width) / 2, originY = (canvas.height - source.height) / 2
        let background = [color.red, color.green, color.blue, color.alpha]
        let rowBytes = output.bytesPerRow
        try output.withUnsafeMutableBytes { (target: UnsafeMutableRawBufferPointer) throws(ImageError) in
            source.withUnsafeBytes { (input: UnsafeRawBufferPointer) in
                guard let targetBase = target.baseAddress, let inputBase = input.baseAddress else { return }
                for y in 0..<canvas.height {
                    let row = targetBase + y * rowBytes
                    let sourceY = y - originY
                    for x in 0..<canvas.width {
                        let pixel = row + x * 4
                        let sourceX = x - originX
                        guard sourceY >= 0, sourceY < source.height, sourceX >= 0, sourceX < source.width else {
                            for channel in 0..<4 { pixel.storeBytes(of: background[channel], toByteOffset: channel, as: UInt8.self) }
                            continue
                        }
                        let from = inputBase + sourceY * source.bytesPerRow + sourceX * 4
                        blend(from, over: background, into: pixel)
                    }
                }
            }
        }
        return output
    }

    /// Straight-alpha source-over of one pixel onto the background colour.
    private static func blend(_ source: UnsafeRawPointer, over background: [UInt8], into target: UnsafeMutableRawPointer) {
        let alpha = Int(source.load(fromByteOffset: 3, as: UInt8.self))
        if alpha == 255 {
            target.copyMemory(from: source, byteCount: 4)
            return
        }
        let backgroundAlpha = Int(background[3]) * (255 - alpha) / 255
        let outputAlpha = alpha + backgroundAlpha
        guard outputAlpha > 0 else {
            for channel in 0..<4 { target.storeBytes(of: 0, toByteOffset: channel, as: UInt8.self) }
            return
        }
        for channel in 0..<3 {
            let value = (Int(source.load(fromByteOffset: channel, as: UInt8.self)) * alpha
                + Int(background[channel]) * backgroundAlpha + outputAlpha / 2) / outputAlpha
            target.storeBytes(of: UInt8(min(255, value)), toByteOffset: channel, as: UInt8.self)
        }
        target.storeBytes(of: UInt8(outputAlpha), toByteOffset: 3, as: UInt8.self)
    }
}
