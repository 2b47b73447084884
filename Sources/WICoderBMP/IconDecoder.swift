#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Decodes the chosen entry of an ICO or CUR file.
///
/// A BMP entry is a DIB whose header height counts the XOR bitmap and the 1-bit AND mask after it. 32-bit entries
/// carry alpha in the fourth byte; when that alpha is all zero, or the entry has fewer bits, the AND mask makes
/// pixels transparent (bit set), as browsers show icons. A truncated AND mask leaves the remaining rows opaque.
/// A PNG entry goes to the PNG coder the `BMPCoder` was given.
struct IconDecoder {
    let reader: ByteReader
    let data: Data
    let pngCoder: (any ImageCoder)?

    struct Decoded {
        var pixels: PixelBuffer
        var complete: Bool
        /// The size of the largest entry: the file's full size, for the thumbnail flag and target size.
        var fullSize: PixelSize
        /// A cursor's hotspot in `pixels` (nil for icons and BMP files).
        var hotspot: ImageCoding.PixelPoint? = nil
    }

    func decode(options: DecodeOptions) throws(ImageError) -> Decoded {
        let directory = try IconDirectory(reader)
        let entry = directory.choose(for: options.scaleDownLimitBytes == nil ? options.thumbnailPixelSize : nil)
        let largest = directory.choose(for: nil)
        if entry.isPNG {
            guard let pngCoder else {
                throw ImageError(.unsupportedFormat, "ICO: a PNG entry, and this BMPCoder was given no PNG coder")
            }
            var inner = options
            inner.thumbnailPixelSize = nil
            inner.scaleDownLimitBytes = nil
            inner.premultipliedAlpha = false
            inner.firstFrameOnly = true
            let image = try pngCoder.decode(
                data.subdata(in: data.startIndex + entry.offset..<data.endIndex),
                options: inner)
            return Decoded(
                pixels: image.pixels, complete: !image.flags.contains(.incomplete),
                fullSize: fullSize(largest, chosen: entry, decoded: image.size), hotspot: entry.hotspot)
        }
        var header = try BMPHeader.read(reader, dibOffset: entry.offset, fileOffset: nil, isIcon: true)
        let storedHeight = header.height
        header.height = storedHeight / 2
        guard header.height > 0 else {
            throw ImageError(.badImageData, "ICO: entry height \(storedHeight) holds no rows")
        }
        try options.checkPixelLimit(PixelSize(width: header.width, height: header.height))
        var result = try BitmapDecoder(header: header, reader: reader).decode()
        if !result.usedAlphaChannel && header.compression != .rle4 && header.compression != .rle8 {
            try applyMask(header, to: &result.pixels)
        }
        return Decoded(
            pixels: result.pixels, complete: result.complete,
            fullSize: fullSize(largest, chosen: entry, decoded: result.pixels.size), hotspot: entry.hotspot)
    }

    /// The largest entry's size when a smaller one was chosen, else the decoded size.
    private func fullSize(_ largest: IconDirectory.Entry, chosen: IconDirectory.Entry, decoded: PixelSize) -> PixelSize
    {
        largest.index == chosen.index ? decoded : PixelSize(width: largest.width, height: largest.height)
    }

    /// Clears the alpha of pixels whose AND-mask bit is set; the mask rows follow the XOR rows in the same order.
    private func applyMask(_ header: BMPHeader, to pixels: inout PixelBuffer) throws(ImageError) {
        let width = header.width
        let height = header.height
        let maskStride = ((width + 31) / 32) * 4
        let (xorBytes, overflow) = header.stride.multipliedReportingOverflow(by: height)
        guard !overflow else { return }
        let maskStart = header.pixelOffset.addingReportingOverflow(xorBytes)
        guard !maskStart.overflow else { return }
        let bytesPerRow = pixels.bytesPerRow
        try pixels.withUnsafeMutableBytes { out in
            for row in 0..<height {
                let start = maskStart.partialValue + row * maskStride
                guard reader.contains(start, (width + 7) / 8) else { return }
                let y = header.topDown ? row : height - 1 - row
                for x in 0..<width where reader.bytes[start + x / 8] & (0x80 >> UInt8(x % 8)) != 0 {
                    out[y * bytesPerRow + x * 4 + 3] = 0
                }
            }
        }
    }
}
