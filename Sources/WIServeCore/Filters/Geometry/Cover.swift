import WICore

extension ThumborFilters {
    /// `cover()`: an animated GIF answers its first frame only (thumbor's gifsicle engine takes frame #0; its
    /// default engine answers 500). Other sources are left as they are. The frame is taken before anything else
    /// (`ThumborTransformer`), so the answer is a still.
    struct Cover: ThumborArgumentlessFilter {
        static let name = "cover"

        var role: ThumborFilterRole { .geometry }
        var description: String { "cover" }

        /// `image`'s first frame when it is an animated GIF, else `image`.
        static func cover(of image: Image) throws(ImageError) -> Image {
            guard image.format == .gif, image.frameCount > 1 else { return image }
            return image.with(frames: [try image.frame(at: 0)])
        }
    }
}
