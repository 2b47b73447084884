#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Writes BMP files and single-entry ICO files from RGBA pixels.
enum BMPEncoder {
    static func encodeBMP(_ source: PixelBuffer, options: EncodeOptions) throws(ImageError) -> Data {
        let pixels = try prepared(source, box: options.maxPixelSize, resampler: options.effectiveResampler)
        let opaque = pixels.isOpaque
        let dib = try dibBytes(pixels, alpha: !opaque, forIcon: false)
        var out = [UInt8]()
        out.reserveCapacity(14 + dib.count)
        out += [0x42, 0x4D]
        appendU32(&out, UInt32(14 + dib.count))
        appendU32(&out, 0)
        appendU32(&out, UInt32(14 + (opaque ? 40 : 108)))
        out += dib
        return Data(out)
    }

    static func encodeICO(_ source: PixelBuffer, options: EncodeOptions, pngCoder: (any ImageCoder)?)
        throws(ImageError) -> Data
    {
        var box = PixelSize(width: 256, height: 256)
        if let limit = options.maxPixelSize {
            box = ImageCoding.Geometry.scaledSize(of: box, toFit: limit)
        }
        let pixels = try prepared(source, box: box, resampler: options.effectiveResampler)
        let entry: [UInt8]
        if let pngCoder, pngCoder.canEncode(to: .png) {
            let png = try pngCoder.encode(
                Image(pixels: pixels), as: .png, options: EncodeOptions(quality: options.quality))
            entry = [UInt8](png)
        } else {
            entry = try dibBytes(pixels, alpha: true, forIcon: true)
        }
        var out = [UInt8]()
        out.reserveCapacity(22 + entry.count)
        appendU16(&out, 0)
        appendU16(&out, 1)
        appendU16(&out, 1)
        out.append(UInt8(truncatingIfNeeded: pixels.width))  // 256 is written as 0
        out.append(UInt8(truncatingIfNeeded: pixels.height))
        out += [0, 0]
        appendU16(&out, 1)
        appendU16(&out, 32)
        appendU32(&out, UInt32(entry.count))
        appendU32(&out, 22)
        out += entry
        return Data(out)
    }

    /// The pixels scaled into `box` (aspect kept, never up) as straight RGBA8.
    private static func prepared(_ source: PixelBuffer, box: PixelSize?, resampler: any ImageResampler)
        throws(ImageError)
        -> PixelBuffer
    {
        var pixels = source
        if let box {
            let target = ImageCoding.Geometry.scaledSize(of: pixels.size, toFit: box)
            if target != pixels.size { pixels = try resampler.resample(pixels, to: target) }
        }
        return try pixels.converted(to: .rgba8)
    }

    /// A DIB: a 40-byte header and 24-bit BGR rows when opaque, a V4 header (BI_BITFIELDS with an alpha mask) and
    /// BGRA rows otherwise; for icons, a 40-byte header with doubled height, BGRA rows and the AND mask.
    private static func dibBytes(_ pixels: PixelBuffer, alpha: Bool, forIcon: Bool) throws(ImageError) -> [UInt8] {
        let width = pixels.width
        let height = pixels.height
        let bitCount = alpha ? 32 : 24
        let rowBytes = ((width * bitCount + 31) / 32) * 4
        let maskStride = forIcon ? ((width + 31) / 32) * 4 : 0
        let headerSize = alpha && !forIcon ? 108 : 40
        let (imageBytes, o1) = (rowBytes + maskStride).multipliedReportingOverflow(by: height)
        guard !o1, imageBytes + headerSize + 14 <= Int(UInt32.max), height <= Int(Int32.max) / 2 else {
            throw ImageError(.encodingFailed, "BMP: \(width)x\(height) is too large for a BMP file")
        }
        var out = [UInt8]()
        out.reserveCapacity(headerSize + imageBytes)
        appendU32(&out, UInt32(headerSize))
        appendU32(&out, UInt32(width))
        appendU32(&out, UInt32(forIcon ? height * 2 : height))
        appendU16(&out, 1)
        appendU16(&out, UInt16(bitCount))
        appendU32(&out, headerSize == 108 ? 3 : 0)  // BI_BITFIELDS for the V4 header, else BI_RGB
        appendU32(&out, UInt32(imageBytes))
        appendU32(&out, 2835)  // 72 dpi
        appendU32(&out, 2835)
        appendU32(&out, 0)
        appendU32(&out, 0)
        if headerSize == 108 {
            for mask: UInt32 in [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0xFF00_0000] { appendU32(&out, mask) }
            appendU32(&out, 0x7352_4742)  // LCS_sRGB
            out += [UInt8](repeating: 0, count: 36 + 12)  // endpoints and gamma, unused with sRGB
        }
        let start = out.count
        out += [UInt8](repeating: 0, count: imageBytes)
        let step = bitCount / 8
        pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    let row = (height - 1 - y) * pixels.bytesPerRow
                    let line = start + y * rowBytes
                    for x in 0..<width {
                        let p = row + x * 4
                        let q = line + x * step
                        target[q] = source[p + 2]
                        target[q + 1] = source[p + 1]
                        target[q + 2] = source[p]
                        if alpha { target[q + 3] = source[p + 3] }
                    }
                }
                guard forIcon else { return }
                let maskStart = start + height * rowBytes
                for y in 0..<height {
                    let row = (height - 1 - y) * pixels.bytesPerRow
                    for x in 0..<width where source[row + x * 4 + 3] == 0 {
                        target[maskStart + y * maskStride + x / 8] |= 0x80 >> UInt8(x % 8)
                    }
                }
            }
        }
        return out
    }

    private static func appendU16(_ out: inout [UInt8], _ value: UInt16) {
        out += [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private static func appendU32(_ out: inout [UInt8], _ value: UInt32) {
        out += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
