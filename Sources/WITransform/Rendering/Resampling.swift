import WICore

/// Scaled drawing with pixman: area-correct when shrinking, bilinear when enlarging.
enum Resampling {
    /// Draws premultiplied `source` scaled to `scaledWidth` x `scaledHeight` with its top-left corner at
    /// (`originX`, `originY`) of `target`, touching only the target pixels the scaled image covers.
    ///
    /// Edges are padded (the border pixels repeat under the filter), so edges keep their colour and alpha.
    /// `extent`: how many of `source`'s pixels the image covers, when that is fractional: a box reduction
    /// (`BoxReduction`) whose last block is cut by the edge covers original size / factor, so that the scale keeps
    /// the original geometry.
    static func draw(
        _ source: PixelBuffer, into target: PixmanImage, scaledWidth: Int, scaledHeight: Int,
        originX: Int = 0, originY: Int = 0, extent: (width: Double, height: Double)? = nil
    )
        throws(ImageError)
    {
        let left = max(0, originX)
        let top = max(0, originY)
        let right = min(target.width, originX + scaledWidth)
        let bottom = min(target.height, originY + scaledHeight)
        guard right > left, bottom > top else { return }
        let scaleX = (extent?.width ?? Double(source.width)) / Double(scaledWidth)
        let scaleY = (extent?.height ?? Double(source.height)) / Double(scaledHeight)
        if !pixmanReaches(source: source.size, scaleX: scaleX, scaleY: scaleY) {
            // WICore's exact area average (on the premultiplied bytes), then a plain pixman copy into place.
            let size = PixelSize(width: scaledWidth, height: scaledHeight)
            let scaled = try ImageCoding.AreaAverageResampler().resample(source, to: size)
            let image = try PixmanImage(scaled)
            target.composite(
                .source, source: image, sourceX: left - originX, sourceY: top - originY, x: left, y: top,
                width: right - left, height: bottom - top)
            return
        }
        // A letterbox offset (origin >= 0) goes into the composite's source offset, so that pixman's 16.16 matrix
        // never holds origin x scale (a 4096-pixel bar at an 8x reduction is 32768, one past its range); a crop
        // offset (origin < 0) stays in the matrix, where it is at most half the source size.
        let shiftX = max(0, originX)
        let shiftY = max(0, originY)
        let matrix = AffineMatrix.scale(scaleX, scaleY)
            .after(.translation(Double(shiftX - originX), Double(shiftY - originY)))
        let image = try PixmanImage(source)
        try image.setSampling(matrix, filter: filter(scaleX: scaleX, scaleY: scaleY), padEdges: true)
        // In bands of about 256K output pixels, the pool job's cancellation checked between them: pixman computes
        // each output pixel on its own, so a band is exactly the same pixels as the whole.
        let band = max(16, 262_144 / max(1, right - left))
        for y in stride(from: top, to: bottom, by: band) {
            try WorkerPool.checkCancellation()
            target.composite(
                .source, source: image, sourceX: left - shiftX, sourceY: y - shiftY, x: left, y: y,
                width: right - left, height: min(band, bottom - y))
        }
    }

    /// Whether pixman's 16.16 fixed point holds the filter footprints: a reduction of at most 1024 times, whose
    /// footprint (half the factor each way) stays inside 32767 pixels. Past that (a 16000x reduction of a
    /// 32000-pixel strip came out wrong) WICore's area average does the job.
    static func pixmanReaches(source: PixelSize, scaleX: Double, scaleY: Double) -> Bool {
        let factor = max(scaleX, scaleY)
        return factor <= 1024 && Double(max(source.width, source.height)) + factor <= Double(PixmanImage.maximumSide)
    }

    /// Nearest for a plain copy, pixman's fast bilinear when no axis shrinks, else separable convolution.
    static func filter(scaleX: Double, scaleY: Double) throws(ImageError) -> PixmanImage.Filter {
        if scaleX == 1 && scaleY == 1 { return .nearest }
        if scaleX <= 1 && scaleY <= 1 { return .bilinear }
        func axis(_ scale: Double) -> PixmanKernels.Axis {
            scale > 1 ? .area(factor: scale) : scale == 1 ? .identity : .linear
        }
        return .convolution(try PixmanKernels.resampling(x: axis(scaleX), y: axis(scaleY)))
    }

    /// `buffer` resized to exactly `size`, in its own format: pixman's exact area average, or with `boxFirst` (the
    /// thumbnail path) a reduction by 4 or more on an axis first box-averaged by a whole factor (`BoxReduction`),
    /// then, when no axis grows, `AreaReduction`'s separable area average over the remaining factor.
    static func resized(_ buffer: PixelBuffer, to size: PixelSize, boxFirst: Bool = false) throws(ImageError)
        -> PixelBuffer
    {
        if buffer.size == size { return buffer }
        var source = try WorkingPixels.premultiplied(buffer)
        let kx = boxFirst ? BoxReduction.factor(for: Double(buffer.width) / Double(size.width)) : 1
        let ky = boxFirst ? BoxReduction.factor(for: Double(buffer.height) / Double(size.height)) : 1
        var extent: (width: Double, height: Double)?
        if kx > 1 || ky > 1 {
            source = try BoxReduction.reduced(source, kx: kx, ky: ky)
            extent = (Double(buffer.width) / Double(kx), Double(buffer.height) / Double(ky))
        }
        var output = try WorkingPixels.output(width: size.width, height: size.height, for: buffer.format, zeroed: false)
        if boxFirst, size.width <= buffer.width, size.height <= buffer.height {
            // Shrinking (or keeping) both axes: the separable area average, not pixman's 2-D footprint.
            let covered = extent ?? (Double(source.width), Double(source.height))
            try AreaReduction.reduce(source, extent: covered, into: &output)
            // Averages of opaque pixels are opaque (the weights sum to exactly one): nothing to unpremultiply, and
            // the next step (an encoder's alpha test, another transform) need not scan for alpha either.
            if buffer.isKnownOpaque { return try WorkingPixels.finished(output, as: buffer.format, opaque: true) }
        } else {
            try draw(
                source, into: PixmanImage(output), scaledWidth: size.width, scaledHeight: size.height,
                extent: extent)
        }
        return try WorkingPixels.finished(output, as: buffer.format)
    }
}
