import WICore

extension ThumborFilters {
    /// `proportion(X)`, 0 < X <= 1: the result scaled by X (truncated; skipped when a side would be 0). Lenient:
    /// another X is skipped, as thumbor's filter returns without resizing.
    struct Proportion: ThumborFilter {
        static let name = "proportion"
        var factor: Double

        init(_ factor: Double) { self.factor = factor }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            factor = try arguments.real(0, 0...1)
        }

        var role: ThumborFilterRole { .geometry }
        var description: String { "proportion(\(factor))" }

        func apply(to image: Image, in context: inout ThumborFilterContext) throws(ImageError) -> Image {
            guard factor > 0 else { return image }
            let size = (width: Int(Double(image.width) * factor), height: Int(Double(image.height) * factor))
            guard size.width >= 1, size.height >= 1 else { return image }
            return try context.resized(image, to: PixelSize(width: size.width, height: size.height))
        }
    }
}
