import WICore
import WITransform

extension ThumborFilters {
    /// `saturation(X)`: colour scaled by X around the pixel's perceived brightness (0: grey, 1: unchanged).
    /// Lenient: up to +-1000000 as thumbor computes it, beyond that +-1000000.
    struct Saturation: ThumborFilter {
        static let name = "saturation"
        var change: Double

        init(_ change: Double) { self.change = change }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            change = try arguments.real(
                0, arguments.strict ? -100...100 : -1_000_000...1_000_000, clampedWhenLenient: true)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try SaturationTransformer(change: change)
        }

        var description: String { "saturation(\(String(reflecting: change)))" }
    }

    /// `grayscale()`: the luma in red, green and blue; alpha kept.
    struct Grayscale: ThumborArgumentlessFilter {
        static let name = "grayscale"

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            GrayscaleTransformer()
        }

        var description: String { "grayscale" }
    }

    /// `equalize()`: each colour channel's histogram spread over 0...255 (WITransform's `EqualizeTransformer`,
    /// thumbor's arithmetic byte for byte).
    struct Equalize: ThumborArgumentlessFilter {
        static let name = "equalize"

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            EqualizeTransformer()
        }

        var description: String { "equalize" }
    }

    /// `background_color(COLOR)`: the image merged over a canvas of COLOR of its own size (thumbor's `_composite`),
    /// so transparent areas take the colour in every output format.
    struct BackgroundColor: ThumborFilter {
        static let name = "background_color"
        var color: RGBAColor

        init(_ color: RGBAColor) { self.color = color }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            color = try arguments.color(0)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try CanvasTransformer(color: color, blending: .composite)
        }

        var description: String { "backgroundColor(\(String(reflecting: color)))" }
    }
}
