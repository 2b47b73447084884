internal import CPixman
import WICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if !_endian(little)
#error("WITransform maps RGBA bytes onto pixman's 32-bit formats, which needs a little-endian host")
#endif

/// One `pixman_image_t`, owned: unreferenced in deinit. The only file that calls pixman for images.
///
/// Images over pixel memory keep their `PixelBuffer` alive for as long as pixman may read or write it. pixman
/// reports failure by returning NULL or false, never by longjmp, so every failure is an `ImageError` here.
///
/// Thread safety: not shared between threads; each transform makes its own images.
final class PixmanImage {
    /// How the bytes R,G,B,A of our pixels are presented to pixman.
    enum Layout {
        /// As `a8r8g8b8`: pixman's red is our blue. Every channel-blind job (resampling, masks, convolution)
        /// uses this, because pixman's fast paths are written for it; colours handed to pixman are swapped.
        case swapped
        /// As `a8b8g8r8`, channels in their true places: for blend modes that weigh channels (hue, luminosity).
        case exact
    }

    /// pixman's compositing operators that the transformers use.
    enum Operator {
        case source, over, inReverse, outReverse, add
        case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight
        case difference, exclusion, hue, saturation, color, luminosity
    }

    /// How a transformed source is sampled.
    enum Filter {
        case nearest
        case bilinear
        /// pixman's separable convolution; `parameters` as pixman takes them (16.16 fixed point).
        case convolution([Int32])
    }

    /// The longest side pixman can address: it places pixels in 16.16 fixed point.
    static let maximumSide = 32767

    let handle: OpaquePointer
    let width: Int
    let height: Int
    /// The pixels under `handle`, when the image is over our memory.
    private let buffer: PixelBuffer?
    private let layout: Layout

    /// An image over `buffer` (8-bit RGBA, premultiplied unless `opaque`; rows a multiple of 4 bytes).
    ///
    /// `opaque` presents the same bytes with the alpha byte ignored (`x8r8g8b8`): straight colour as opaque.
    /// The buffer's memory is written only when this image is a composite destination; callers pass a buffer
    /// they own alone for that.
    init(_ buffer: PixelBuffer, layout: Layout = .swapped, opaque: Bool = false) throws(ImageError) {
        precondition(buffer.format.bitsPerComponent == 8 && buffer.bytesPerRow % 4 == 0)
        try Self.checkSides(buffer.width, buffer.height)
        let format: pixman_format_code_t =
            switch (layout, opaque) {
            case (.swapped, false): PIXMAN_a8r8g8b8
            case (.swapped, true): PIXMAN_x8r8g8b8
            case (.exact, false): PIXMAN_a8b8g8r8
            case (.exact, true): PIXMAN_x8b8g8r8
            }
        let bits = buffer.storage.bytes.assumingMemoryBound(to: UInt32.self)
        guard
            let handle = pixman_image_create_bits(
                format, Int32(buffer.width), Int32(buffer.height), bits,
                Int32(buffer.bytesPerRow))
        else {
            throw ImageError(.outOfMemory, "pixman could not wrap a \(buffer.width)x\(buffer.height) image")
        }
        self.handle = handle
        self.width = buffer.width
        self.height = buffer.height
        self.buffer = buffer
        self.layout = layout
    }

    /// A zeroed 8-bit coverage mask that pixman allocates.
    init(maskWidth width: Int, height: Int) throws(ImageError) {
        try Self.checkSides(width, height)
        guard let handle = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0) else {
            throw ImageError(.outOfMemory, "pixman could not allocate a \(width)x\(height) mask")
        }
        self.handle = handle
        self.width = width
        self.height = height
        self.buffer = nil
        self.layout = .swapped
    }

    /// A solid colour (straight alpha in, premultiplied for pixman), for images in `layout`.
    init(solid color: RGBAColor, layout: Layout) throws(ImageError) {
        func wide(_ v: UInt8) -> UInt16 { UInt16(v) * 257 }
        let alpha = Int(color.alpha)
        func premultiplied(_ v: UInt8) -> UInt16 {
            wide(UInt8(PixelMath.premultiply(Int(v), alpha: alpha, maximum: 255)))
        }
        let red = premultiplied(color.red)
        let blue = premultiplied(color.blue)
        var value = pixman_color_t(
            red: layout == .swapped ? blue : red, green: premultiplied(color.green),
            blue: layout == .swapped ? red : blue, alpha: wide(color.alpha))
        guard let handle = pixman_image_create_solid_fill(&value) else {
            throw ImageError(.outOfMemory, "pixman could not make a solid fill")
        }
        self.handle = handle
        self.width = 0
        self.height = 0
        self.buffer = nil
        self.layout = layout
    }

    deinit { pixman_image_unref(handle) }

    /// Throws `.pixelLimitExceeded` for a side longer than `maximumSide`.
    static func checkSides(_ width: Int, _ height: Int) throws(ImageError) {
        guard width <= maximumSide, height <= maximumSide else {
            throw ImageError(
                .pixelLimitExceeded,
                "\(width)x\(height) is too large for pixman (at most \(maximumSide) pixels a side)")
        }
    }

    /// Sets how this image is sampled when it is a source: `matrix` maps destination coordinates to source
    /// coordinates (x' = a x + c y + tx, y' = b x + d y + ty).
    func setSampling(_ matrix: AffineMatrix, filter: Filter, padEdges: Bool) throws(ImageError) {
        var floating = pixman_f_transform(
            m: (
                (matrix.a, matrix.c, matrix.tx), (matrix.b, matrix.d, matrix.ty),
                (0, 0, 1)
            ))
        var fixed = pixman_transform()
        guard pixman_transform_from_pixman_f_transform(&fixed, &floating) != 0,
            pixman_image_set_transform(handle, &fixed) != 0
        else {
            throw ImageError(.badImageData, "pixman cannot represent the transform \(matrix)")
        }
        pixman_image_set_repeat(handle, padEdges ? PIXMAN_REPEAT_PAD : PIXMAN_REPEAT_NONE)
        let accepted: Int32 =
            switch filter {
            case .nearest: pixman_image_set_filter(handle, PIXMAN_FILTER_NEAREST, nil, 0)
            case .bilinear: pixman_image_set_filter(handle, PIXMAN_FILTER_BILINEAR, nil, 0)
            case .convolution(let parameters):
                parameters.withUnsafeBufferPointer {
                    pixman_image_set_filter(
                        handle, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, $0.baseAddress, Int32($0.count))
                }
            }
        guard accepted != 0 else { throw ImageError(.outOfMemory, "pixman could not set the filter") }
    }

    /// Composites `source` (through `mask`'s alpha, if any) onto `width` x `height` pixels of this image at
    /// (`x`, `y`); the source is read from (`sourceX`, `sourceY`) in destination space before its transform, the
    /// mask from the destination position (masks are laid over the destination).
    func composite(
        _ op: Operator, source: PixmanImage, mask: PixmanImage? = nil, sourceX: Int = 0, sourceY: Int = 0,
        x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil
    ) {
        pixman_image_composite32(
            op.pixman, source.handle, mask?.handle, handle, Int32(sourceX), Int32(sourceY),
            Int32(x), Int32(y), Int32(x), Int32(y),
            Int32(width ?? self.width), Int32(height ?? self.height))
    }

    /// Adds the antialiased coverage of `triangles` (corner points in pixels) to this mask.
    func addCoverage(of triangles: [(Point, Point, Point)]) {
        func fixed(_ p: Point) -> pixman_point_fixed_t {
            pixman_point_fixed_t(x: pixman_double_to_fixed(p.x), y: pixman_double_to_fixed(p.y))
        }
        let converted = triangles.map { pixman_triangle_t(p1: fixed($0.0), p2: fixed($0.1), p3: fixed($0.2)) }
        converted.withUnsafeBufferPointer { pixman_add_triangles(handle, 0, 0, Int32($0.count), $0.baseAddress) }
    }

    /// A point in pixel coordinates.
    struct Point {
        var x: Double
        var y: Double
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // (named as the C macro it stands for)
    private func pixman_double_to_fixed(_ value: Double) -> pixman_fixed_t { pixman_fixed_t((value * 65536).rounded()) }
}

extension PixmanImage.Operator {
    var pixman: pixman_op_t {
        switch self {
        case .source: PIXMAN_OP_SRC
        case .over: PIXMAN_OP_OVER
        case .inReverse: PIXMAN_OP_IN_REVERSE
        case .outReverse: PIXMAN_OP_OUT_REVERSE
        case .add: PIXMAN_OP_ADD
        case .multiply: PIXMAN_OP_MULTIPLY
        case .screen: PIXMAN_OP_SCREEN
        case .overlay: PIXMAN_OP_OVERLAY
        case .darken: PIXMAN_OP_DARKEN
        case .lighten: PIXMAN_OP_LIGHTEN
        case .colorDodge: PIXMAN_OP_COLOR_DODGE
        case .colorBurn: PIXMAN_OP_COLOR_BURN
        case .hardLight: PIXMAN_OP_HARD_LIGHT
        case .softLight: PIXMAN_OP_SOFT_LIGHT
        case .difference: PIXMAN_OP_DIFFERENCE
        case .exclusion: PIXMAN_OP_EXCLUSION
        case .hue: PIXMAN_OP_HSL_HUE
        case .saturation: PIXMAN_OP_HSL_SATURATION
        case .color: PIXMAN_OP_HSL_COLOR
        case .luminosity: PIXMAN_OP_HSL_LUMINOSITY
        }
    }
}

/// The separable-convolution parameters pixman builds for a scale (its own kernels, normalized per phase).
enum PixmanKernels {
    /// How one axis is resampled.
    enum Axis {
        /// Shrinking by `factor` (> 1): a box footprint over box pixels, i.e. exact area coverage.
        case area(factor: Double)
        /// Enlarging: linear interpolation between pixel centres.
        case linear
        /// Same size at whole-pixel positions: each output pixel is one input pixel.
        case identity
    }

    /// Filter parameters for `x` and `y`.
    ///
    /// pixman moves each sample position to the middle of one of 2^bits phases per pixel; with its usual 4 bits
    /// (cairo's) a sample is up to 1/32 pixel off and a hard edge leaks 4 levels into the next pixel at 2x. 8 bits
    /// keep that under half a level. Very wide footprints get fewer phases (at most 65536 weights per axis), where
    /// the offset matters less in proportion. A box reconstruction under a box footprint integrates to the exact
    /// overlap.
    static func resampling(x: Axis, y: Axis) throws(ImageError) -> [Int32] {
        func kernels(_ axis: Axis) -> (pixman_kernel_t, pixman_kernel_t, Double, Int32) {
            switch axis {
            case .area(let factor): (PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, factor, phaseBits(taps: factor + 1))
            case .linear: (PIXMAN_KERNEL_LINEAR, PIXMAN_KERNEL_IMPULSE, 1, 8)
            // One phase at the pixel centre: weights (0, 1), a plain copy.
            case .identity: (PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 1, 0)
            }
        }
        func phaseBits(taps: Double) -> Int32 { Int32(max(0, min(8, (log2(65536 / taps)).rounded(.down)))) }
        let (rx, sx, fx, bx) = kernels(x)
        let (ry, sy, fy, by) = kernels(y)
        var count: Int32 = 0
        guard
            let parameters = pixman_filter_create_separable_convolution(
                &count, pixman_fixed_t(fx * 65536), pixman_fixed_t(fy * 65536), rx, ry, sx, sy, bx, by)
        else {
            throw ImageError(.outOfMemory, "pixman could not build a resampling filter")
        }
        defer { free(parameters) }
        return Array(UnsafeBufferPointer(start: parameters, count: Int(count)))
    }
}
