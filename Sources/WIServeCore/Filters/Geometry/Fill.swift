import WICore
import WITransform

extension ThumborFilters {
    /// `fill(COLOR)`: the background of `fit-in` (the box is filled to its full size) and of transparent pixels
    /// in formats without alpha. COLOR is a name, `RRGGBB`, `RGB`, `transparent`, `auto` (the image's mean colour,
    /// thumbor's `_fill`: every pixel's red, green and blue summed and divided, truncated) or `blur` (the image
    /// blurred as `blur(50)` blurs it, stretched over the box).
    struct Fill: ThumborFilter {
        /// What fills the box.
        enum Background: Hashable, Sendable {
            case color(RGBAColor)
            /// The image's mean colour (`auto`).
            case mean
            /// The image blurred and stretched (`blur`).
            case blurred
        }

        static let name = "fill"
        /// thumbor's blur radius (and sigma) for `fill(blur)`.
        static let blurRadius = 50
        var background: Background

        init(_ color: RGBAColor) { background = .color(color) }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...2)
            switch arguments[0] {
            case "auto": background = .mean
            case "blur": background = .blurred
            default: background = .color(try arguments.color(0))
            }
        }

        var role: ThumborFilterRole { .geometry }

        func plan(_ plan: inout EncodePlan) {
            if case .color(let color) = background { plan.background = color }
        }

        var description: String {
            switch background {
            case .color(let color): "fill(\(String(reflecting: color)))"
            case .mean: "fill(auto)"
            case .blurred: "fill(blur)"
            }
        }

        /// The blur's buffers: the convolution's 12 bytes a pixel.
        var workingBytesPerPixel: Int { background == .blurred ? 12 : 8 }

        func apply(to image: Image, in context: inout ThumborFilterContext) throws(ImageError) -> Image {
            guard context.fitIn, !context.filled else { return image }
            // The fit-in box, filled (a free side takes the image's); the image centred on it.
            context.filled = true
            let canvas = PixelSize(
                width: context.box.width == 0 ? image.width : context.box.width,
                height: context.box.height == 0 ? image.height : context.box.height)
            try context.checkLimit(canvas)
            switch background {
            case .color(let color):
                return try CanvasTransformer(size: canvas, color: color).transform(image)
            case .mean:
                return try CanvasTransformer(size: canvas, color: try Self.meanColor(of: image)).transform(image)
            case .blurred:
                let blurred = try ConvolutionTransformer.gaussianBlur(radius: Self.blurRadius, sigma: 0)
                    .transform(image)
                let backdrop = try context.resized(blurred, to: canvas)
                let centred = try OverlayTransformer(
                    image, identifier: "fill(blur)", x: .center, y: .center, transparency: 0)
                return try centred.transform(backdrop)
            }
        }

        /// thumbor's `fill(auto)` colour: the mean red, green and blue of the first frame's straight pixels (every
        /// pixel counted, transparent ones too), each truncated; opaque. The pool job's cancellation is looked at every
        /// 16 rows.
        static func meanColor(of image: Image) throws(ImageError) -> RGBAColor {
            let pixels = try image.frame(at: 0).pixels.converted(to: .rgba8)
            var sums = (red: 0, green: 0, blue: 0)
            try pixels.withUnsafeBytes { (bytes) throws(ImageError) in
                for y in 0..<pixels.height {
                    if y & 15 == 0 { try WorkerPool.checkCancellation() }
                    let row = bytes.baseAddress! + y * pixels.bytesPerRow
                    for x in 0..<pixels.width {
                        let pixel = row + x * 4
                        sums.red += Int(pixel.load(fromByteOffset: 0, as: UInt8.self))
                        sums.green += Int(pixel.load(fromByteOffset: 1, as: UInt8.self))
                        sums.blue += Int(pixel.load(fromByteOffset: 2, as: UInt8.self))
                    }
                }
            }
            let area = max(1, pixels.width * pixels.height)
            return RGBAColor(
                red: UInt8(sums.red / area), green: UInt8(sums.green / area), blue: UInt8(sums.blue / area))
        }
    }
}
