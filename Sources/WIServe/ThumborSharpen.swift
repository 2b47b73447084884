#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import WICore

/// thumbor's `sharpen(amount, radius, luminance_only)`: an à-trous wavelet sharpen. Each colour channel (or, with
/// `luminanceOnly`, the Y of its YCbCr form) is split into five detail layers by the [1 2 1] / 4 hat filter at
/// spacings 1, 2, 4, 8 and 16 (mirrored at the edges), layer `k` is amplified by `amount x e^(-(k - radius)^2 / 1.5)
/// + 1`, and the layers are added back onto the coarsest residue. Single precision throughout, in thumbor's order of
/// operations, so the result equals its `_sharpen` extension's byte for byte (Tests/Fixtures/serve-sharpen) on
/// images of at least 32 pixels a side; on smaller ones thumbor reads outside its buffers, where this mirrors again.
/// Alpha is left alone.
///
/// Thread safety: an immutable value; safe from any thread.
struct ThumborSharpen: Sendable {
    let amount: Double
    let radius: Double
    let luminanceOnly: Bool

    /// The hat filter's spacings: 2^0 ... 2^4.
    private static let levels = 5

    /// Every frame of `image`, sharpened.
    func apply(to image: Image) throws(ImageError) -> Image {
        try image.mappingFrames { (pixels) throws(ImageError) in try apply(to: pixels) }
    }

    /// `pixels` (any format, converted to straight RGBA8) sharpened.
    func apply(to pixels: PixelBuffer) throws(ImageError) -> PixelBuffer {
        var bytes = try pixels.converted(to: .rgba8).packedBytes()
        let width = pixels.width, height = pixels.height, area = width * height
        var planes = [[Float]](repeating: [Float](repeating: 0, count: area), count: 3)
        for index in 0..<area {
            var red = Float(bytes[index * 4]), green = Float(bytes[index * 4 + 1]), blue = Float(bytes[index * 4 + 2])
            if luminanceOnly { (red, green, blue) = Self.ycbcr(red, green, blue) }
            planes[0][index] = red / 255
            planes[1][index] = green / 255
            planes[2][index] = blue / 255
        }
        for channel in 0..<(luminanceOnly ? 1 : 3) { try sharpen(&planes[channel], width: width, height: height) }
        for index in 0..<area {
            var red = planes[0][index] * 255, green = planes[1][index] * 255, blue = planes[2][index] * 255
            if luminanceOnly { (red, green, blue) = Self.rgb(red, green, blue) }
            bytes[index * 4] = Self.byte(red)
            bytes[index * 4 + 1] = Self.byte(green)
            bytes[index * 4 + 2] = Self.byte(blue)
        }
        return try PixelBuffer(width: width, height: height, format: .rgba8, bytes: bytes)
    }

    /// One plane, in place: detail layers amplified and summed back onto the coarsest residue; throws `.cancelled`
    /// between rows and columns once the pool job is cancelled.
    private func sharpen(_ plane: inout [Float], width: Int, height: Int) throws(ImageError) {
        let area = width * height
        // `plane` ends up holding the sum; `smooth` holds each level's low-pass, `detail` the previous one (whose
        // difference to the new low-pass is that level's detail).
        var previous = plane, smooth = [Float](repeating: 0, count: area)
        var line = [Float](repeating: 0, count: max(width, height))
        for level in 0..<Self.levels {
            let spacing = 1 << level
            for row in 0..<height {
                if row % 16 == 0 { try WorkerPool.checkCancellation() }
                Self.hat(previous, start: row * width, stride: 1, count: width, spacing: spacing, into: &line)
                for column in 0..<width { smooth[row * width + column] = line[column] * 0.25 }
            }
            for column in 0..<width {
                if column % 16 == 0 { try WorkerPool.checkCancellation() }
                Self.hat(smooth, start: column, stride: width, count: height, spacing: spacing, into: &line)
                for row in 0..<height { smooth[row * width + column] = line[row] * 0.25 }
            }
            let distance = Double(level) - radius
            let gain = Float(amount * exp(-distance * distance / 1.5) + 1)
            for index in 0..<area {
                let detail = (previous[index] - smooth[index]) * gain
                if level == 0 { plane[index] = detail } else { plane[index] += detail }
            }
            swap(&previous, &smooth)
        }
        for index in 0..<area { plane[index] = plane[index] + previous[index] }
    }

    /// The [1 2 1] hat at `spacing` along one line of `count` samples `stride` apart from `start`: `2 x centre +
    /// left + right`, the neighbours mirrored about the line's ends.
    private static func hat(_ source: [Float], start: Int, stride: Int, count: Int, spacing: Int, into line: inout [Float]) {
        func mirrored(_ position: Int) -> Int {
            guard count > 1 else { return 0 }
            let period = 2 * (count - 1)
            var folded = position % period
            if folded < 0 { folded += period }
            return folded < count ? folded : period - folded
        }
        for index in 0..<count {
            let before = index - spacing, after = index + spacing
            let centre = source[start + stride * index]
            let left = source[start + stride * (before >= 0 ? before : mirrored(before))]
            let right = source[start + stride * (after < count ? after : mirrored(after))]
            line[index] = 2 * centre + left + right
        }
    }

    /// RGB to YCbCr (JPEG's), in double precision and kept as floats, as thumbor converts.
    private static func ycbcr(_ red: Float, _ green: Float, _ blue: Float) -> (Float, Float, Float) {
        let r = Double(red), g = Double(green), b = Double(blue)
        return (Float(0.2990 * r + 0.5870 * g + 0.1140 * b), Float(-0.1687 * r - 0.3313 * g + 0.5000 * b + 128.0),
                Float(0.5000 * r - 0.4187 * g - 0.0813 * b + 128.0))
    }

    private static func rgb(_ y: Float, _ cb: Float, _ cr: Float) -> (Float, Float, Float) {
        let luma = Double(y), blueDifference = Double(cb) - 128.0, redDifference = Double(cr) - 128.0
        return (Float(luma + 1.40200 * redDifference),
                Float(luma - 0.34414 * blueDifference - 0.71414 * redDifference),
                Float(luma + 1.77200 * blueDifference))
    }

    /// Clamped to 0...255, then truncated.
    private static func byte(_ value: Float) -> UInt8 {
        value > 255 ? 255 : value < 0 ? 0 : UInt8(value)
    }
}
