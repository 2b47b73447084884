import WICore

extension ThumborFilters {
    /// `no_upscale()`: never enlarge the source (the requested sides capped at the source's; `ThumborGeometry`).
    struct NoUpscale: ThumborArgumentlessFilter {
        static let name = "no_upscale"

        var role: ThumborFilterRole { .geometry }
        var description: String { "noUpscale" }
    }

    /// `upscale()`: with `fit-in`, enlarge a source smaller than the box to fit it (thumbor keeps it otherwise).
    struct Upscale: ThumborArgumentlessFilter {
        static let name = "upscale"

        var role: ThumborFilterRole { .geometry }
        var description: String { "upscale" }

        func apply(to image: Image, in context: inout ThumborFilterContext) throws(ImageError) -> Image {
            // After fill() the image is the box already (thumbor's order).
            guard context.fitIn, !context.filled, let size = Self.upscaled(image.size, box: context.box) else {
                return image
            }
            return try context.resized(image, to: size)
        }

        /// thumbor's `upscale()`: the size that fits a smaller image into `box` (sides truncated), or nil when
        /// either side already reaches the box.
        static func upscaled(_ size: PixelSize, box: PixelSize) -> PixelSize? {
            guard size.width < box.width, size.height < box.height else { return nil }
            let sw = Double(size.width)
            let sh = Double(size.height)
            let bw = Double(box.width)
            let bh = Double(box.height)
            if sw / bw >= sh / bh { return PixelSize(width: box.width, height: max(1, Int(sh * bw / sw))) }
            return PixelSize(width: max(1, Int(sw * bh / sh)), height: box.height)
        }
    }
}
