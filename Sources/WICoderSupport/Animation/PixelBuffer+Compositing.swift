#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import WICore

extension PixelBuffer {
    /// Draws RGBA8 straight-alpha `pixels` (the rectangle's size) into this RGBA8 canvas at `rect`.
    ///
    /// `.source` copies; `.over` is source-over with straight alpha, rounded:
    /// a = sa + da(1 - sa), c = (sc sa + dc da (1 - sa)) / a.
    mutating func draw(
        _ pixels: PixelBuffer, at rect: ImageCoding.AnimationFrameInfo, blend: ImageCoding.AnimationFrameInfo.Blend
    )
        throws(ImageError)
    {
        try makeUnique()
        let rowBytes = bytesPerRow
        let rowLength = rect.width * 4
        try withUnsafeMutableBytes { canvas in
            pixels.withUnsafeBytes { source in
                for row in 0..<rect.height {
                    let from = (source.baseAddress! + row * pixels.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let to = (canvas.baseAddress! + (rect.y + row) * rowBytes + rect.x * 4).assumingMemoryBound(
                        to: UInt8.self)
                    if blend == .source {
                        to.update(from: from, count: rowLength)
                    } else {
                        Self.blendOver(from, onto: to, count: rect.width)
                    }
                }
            }
        }
    }

    /// Clears `rect` of this RGBA8 canvas to transparent black.
    mutating func clear(_ rect: ImageCoding.AnimationFrameInfo) throws(ImageError) {
        try makeUnique()
        let rowBytes = bytesPerRow
        try withUnsafeMutableBytes { canvas in
            for row in 0..<rect.height {
                memset(canvas.baseAddress! + (rect.y + row) * rowBytes + rect.x * 4, 0, rect.width * 4)
            }
        }
    }

    @inline(__always)
    private static func blendOver(_ source: UnsafePointer<UInt8>, onto target: UnsafeMutablePointer<UInt8>, count: Int)
    {
        for i in 0..<count {
            let s = source + i * 4
            let d = target + i * 4
            let sa = Int(s[3])
            if sa == 255 {
                d.update(from: s, count: 4)
            } else if sa != 0 {
                let da = Int(d[3])
                // Alpha scaled by 255: sa * 255 + da * (255 - sa).
                let alpha255 = sa * 255 + da * (255 - sa)
                for c in 0..<3 {
                    let value = Int(s[c]) * sa * 255 + Int(d[c]) * da * (255 - sa)
                    d[c] = UInt8((value + alpha255 / 2) / alpha255)
                }
                d[3] = UInt8((alpha255 + 127) / 255)
            }
        }
    }
}
