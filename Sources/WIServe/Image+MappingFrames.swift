import WICore

extension Image {
    /// This image with every frame's pixels replaced by `transform`'s result (durations, loop count, format and
    /// metadata kept): how the service's own pixel filters apply to animations as to stills.
    func mappingFrames(_ transform: (PixelBuffer) throws(ImageError) -> PixelBuffer) throws(ImageError) -> Image {
        var frames: [ImageFrame] = []
        frames.reserveCapacity(frameCount)
        for index in 0..<frameCount {
            try WorkerPool.checkCancellation()
            let frame = try frame(at: index)
            frames.append(ImageFrame(pixels: try transform(frame.pixels), duration: frame.duration))
        }
        return with(frames: frames)
    }
}
