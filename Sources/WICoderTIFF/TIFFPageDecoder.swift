import WICore

/// Decodes one page of an open file: the whole page straight into the output buffer, or, for a thumbnail, band by
/// band through a box reduction by the largest integer factor that keeps the result at least the target size.
enum TIFFPageDecoder {
    /// The decoded page and what `DecodeOptions.finish` needs to know about it.
    struct Decoded {
        var pixels: PixelBuffer
        var storedSize: PixelSize
        var orientation: ImageOrientation
        /// The data ran short; the rows after it are padded.
        var isIncomplete: Bool
    }

    static func decode(_ reader: TIFFReader, page index: Int, options: DecodeOptions) throws(ImageError) -> Decoded {
        // Straight output unless premultiplied is asked: the shim divides associated alpha out as Pillow does.
        let page = try reader.selectPage(
            index, want16Bit: options.keep16Bit, straightAlpha: !options.premultipliedAlpha)
        try options.checkPixelLimit(page.size)
        let factor = reductionFactor(for: page, options: options)
        var pixels: PixelBuffer
        if factor == 1 {
            // Bands land in their place in the output: no copy, no full-size intermediate.
            pixels = try PixelBuffer(
                width: page.size.width, height: page.size.height, format: page.format,
                zeroed: false)
            let bytesPerRow = pixels.bytesPerRow
            let band = page.bandHeight
            let result: Result<Void, ImageError> = try pixels.withUnsafeMutableBytes { bytes in
                do throws(ImageError) {
                    for index in 0..<page.bandCount {
                        try WorkerPool.checkCancellation()
                        try reader.readBand(
                            index, into: bytes.baseAddress! + index * band * bytesPerRow,
                            bytesPerRow: bytesPerRow)
                    }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try result.get()
        } else {
            var band = try PixelBuffer(
                width: page.size.width, height: page.bandHeight, format: page.format,
                zeroed: false)
            var reducer = try TIFFBoxReducer(source: page.size, factor: factor, format: page.format)
            for index in 0..<page.bandCount {
                try WorkerPool.checkCancellation()
                let rows = Swift.min(page.bandHeight, page.size.height - index * page.bandHeight)
                let bytesPerRow = band.bytesPerRow
                let result: Result<Void, ImageError> = try band.withUnsafeMutableBytes { bytes in
                    do throws(ImageError) {
                        try reader.readBand(index, into: bytes.baseAddress!, bytesPerRow: bytesPerRow)
                        try reducer.add(
                            rows: UnsafeRawPointer(bytes.baseAddress!), count: rows, bytesPerRow: bytesPerRow)
                        return .success(())
                    } catch {
                        return .failure(error)
                    }
                }
                try result.get()
            }
            pixels = try reducer.finish()
        }
        return Decoded(
            pixels: pixels, storedSize: page.size, orientation: page.orientation,
            isIncomplete: reader.isPageIncomplete)
    }

    /// The largest integer factor whose reduced size still covers the target in both dimensions (1: no target).
    static func reductionFactor(for page: TIFFReader.Page, options: DecodeOptions) -> Int {
        let swaps = page.orientation.swapsDimensions
        let displayed = swaps ? PixelSize(width: page.size.height, height: page.size.width) : page.size
        let bytesPerPixel = options.keep16Bit ? page.format.bytesPerPixel : 4
        guard let target = options.targetSize(for: displayed, bytesPerPixel: bytesPerPixel),
            target.width > 0, target.height > 0
        else { return 1 }
        let stored = swaps ? PixelSize(width: target.height, height: target.width) : target
        return Swift.max(1, Swift.min(page.size.width / stored.width, page.size.height / stored.height))
    }
}
