#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CPNGShim

/// The PNG colour layout an encode writes: the smallest that loses nothing.
enum PNGLayout {
    case gray, grayAlpha, rgb, rgba

    /// Grey when every pixel has R == G == B, without alpha when every pixel is opaque.
    static func smallest(for pixels: PixelBuffer) -> PNGLayout {
        var gray = true
        var opaque = true
        pixels.withUnsafeBytes { bytes in
            for y in 0..<pixels.height where gray || opaque {
                let row = bytes.baseAddress! + y * pixels.bytesPerRow
                if pixels.format.bitsPerComponent == 8 {
                    scan(row.assumingMemoryBound(to: UInt8.self), pixels.width, 255, &gray, &opaque)
                } else {
                    scan(row.assumingMemoryBound(to: UInt16.self), pixels.width, 65535, &gray, &opaque)
                }
            }
        }
        switch (gray, opaque) {
        case (true, true): return .gray
        case (true, false): return .grayAlpha
        case (false, true): return .rgb
        case (false, false): return .rgba
        }
    }

    private static func scan<T: FixedWidthInteger>(
        _ p: UnsafePointer<T>, _ width: Int, _ maximum: T,
        _ gray: inout Bool, _ opaque: inout Bool
    ) {
        for x in 0..<width {
            let i = x * 4
            if p[i + 3] != maximum { opaque = false }
            if p[i] != p[i + 1] || p[i] != p[i + 2] { gray = false }
        }
    }

    /// This layout, widened to colour when an RGB colour profile must be kept (PNG forbids it on grey images).
    func compatible(withProfile profile: Data?) -> PNGLayout {
        guard let profile, Self.colorSpace(of: profile) == "RGB " else { return self }
        switch self {
        case .gray: return .rgb
        case .grayAlpha: return .rgba
        case .rgb, .rgba: return self
        }
    }

    /// Whether PNG permits `profile` on this layout: grey profiles on grey layouts, RGB profiles on colour ones.
    func accepts(profile: Data) -> Bool {
        switch Self.colorSpace(of: profile) {
        case "RGB ": return self == .rgb || self == .rgba
        case "GRAY": return self == .gray || self == .grayAlpha
        default: return false
        }
    }

    /// The data colour space signature of an ICC profile (bytes 16-19), e.g. "RGB " or "GRAY".
    private static func colorSpace(of profile: Data) -> String? {
        guard profile.count >= 20 else { return nil }
        return String(decoding: profile[profile.startIndex + 16..<profile.startIndex + 20], as: UTF8.self)
    }

    var channels: Int {
        switch self {
        case .gray: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    var shimLayout: wi_png_layout {
        switch self {
        case .gray: WI_PNG_LAYOUT_GRAY
        case .grayAlpha: WI_PNG_LAYOUT_GRAY_ALPHA
        case .rgb: WI_PNG_LAYOUT_RGB
        case .rgba: WI_PNG_LAYOUT_RGBA
        }
    }

    /// Rows in this layout: the buffer itself for RGBA, else a packed copy keeping the chosen channels.
    /// The result is only read as raw bytes; its `format` field still names the source format.
    func pack(_ pixels: PixelBuffer) throws(ImageError) -> PixelBuffer {
        if self == .rgba { return pixels }
        let keep: [Int] =
            switch self {
            case .gray: [0]
            case .grayAlpha: [0, 3]
            case .rgb: [0, 1, 2]
            case .rgba: [0, 1, 2, 3]
            }
        let componentBytes = pixels.format.bitsPerComponent / 8
        let rowBytes = pixels.width * keep.count * componentBytes
        var packed = try PixelBuffer(
            width: pixels.width, height: pixels.height, format: pixels.format,
            bytesPerRow: max(rowBytes, pixels.width * pixels.format.bytesPerPixel), zeroed: false)
        let packedRowBytes = packed.bytesPerRow
        try packed.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes { input in
                for y in 0..<pixels.height {
                    let source = input.baseAddress! + y * pixels.bytesPerRow
                    var target = out.baseAddress! + y * packedRowBytes
                    if componentBytes == 1 {
                        packRow(
                            source.assumingMemoryBound(to: UInt8.self),
                            into: target.assumingMemoryBound(to: UInt8.self),
                            width: pixels.width)
                        continue
                    }
                    for x in 0..<pixels.width {
                        for channel in keep {
                            target.copyMemory(
                                from: source + (x * 4 + channel) * componentBytes, byteCount: componentBytes)
                            target += componentBytes
                        }
                    }
                }
            }
        }
        return packed
    }

    /// One 8-bit RGBA row packed into this layout with plain loads and stores (the generic loop above copies each
    /// component with a call; on thumbnails written as PNG it showed at 3% of a whole `wi fetch`).
    private func packRow(_ source: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>, width: Int) {
        switch self {
        case .gray:
            for x in 0..<width { target[x] = source[x &* 4] }
        case .grayAlpha:
            for x in 0..<width {
                target[x &* 2] = source[x &* 4]
                target[x &* 2 &+ 1] = source[x &* 4 &+ 3]
            }
        case .rgb:
            for x in 0..<width {
                target[x &* 3] = source[x &* 4]
                target[x &* 3 &+ 1] = source[x &* 4 &+ 1]
                target[x &* 3 &+ 2] = source[x &* 4 &+ 2]
            }
        case .rgba:
            target.update(from: source, count: width &* 4)
        }
    }
}
