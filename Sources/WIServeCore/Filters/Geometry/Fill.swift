import WICore
import WITransform

extension ThumborFilters {
    /// `fill(COLOR)`: the background of `fit-in` (the box is filled to its full size) and of transparent pixels
    /// in formats without alpha. COLOR is a name, `RRGGBB`, `RGB` or `transparent`.
    struct Fill: ThumborFilter {
        static let name = "fill"
        var color: RGBAColor

        init(_ color: RGBAColor) { self.color = color }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...2)
            color = try arguments.color(0)
        }

        var role: ThumborFilterRole { .geometry }
        func plan(_ plan: inout EncodePlan) { plan.background = color }
        var description: String { "fill(\(String(reflecting: color)))" }

        func apply(to image: Image, in context: inout ThumborFilterContext) throws(ImageError) -> Image {
            guard context.fitIn, !context.filled else { return image }
            // The fit-in box, filled (a free side takes the image's); the image centred on it.
            context.filled = true
            let canvas = PixelSize(
                width: context.box.width == 0 ? image.width : context.box.width,
                height: context.box.height == 0 ? image.height : context.box.height)
            try context.checkLimit(canvas)
            return try CanvasTransformer(size: canvas, color: color).transform(image)
        }
    }
}
