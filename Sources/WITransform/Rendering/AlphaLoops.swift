import WICore

/// The alpha bookkeeping around pixman: telling opaque pixels apart, and unpremultiplying results.
///
/// Hand-written because pixman cannot unpremultiply at all. Premultiplying stays with pixman (colour IN alpha,
/// `WorkingPixels.premultiplied`): a loop measured slower for half-transparent pixels (36 ms against pixman's
/// 31 ms for 4000x3000, release build, docs/PERFORMANCE.md). The rounding is WICore's (`PixelMath`), so results equal
/// `PixelBuffer.converted(to:)`.
enum AlphaLoops {
    /// `straight[alpha << 8 | premultipliedValue]`: 64 KiB, built once, so unpremultiplying needs no division.
    private static let straight: [UInt8] = (0..<65536).map { index in
        UInt8(PixelMath.unpremultiply(index & 0xFF, alpha: index >> 8, maximum: 255))
    }

    /// Turns the premultiplied bytes pixman wrote into `buffer` (which nothing else reads yet) into straight alpha.
    /// Opaque and fully transparent pixels, the common case, are left as they are.
    static func unpremultiplyInPlace(_ buffer: PixelBuffer) {
        let words = buffer.storage.bytes.assumingMemoryBound(to: UInt32.self)
        straight.withUnsafeBufferPointer { table in
            for i in 0..<(buffer.bytesPerRow / 4 * buffer.height) {
                let word = words[i]
                let alpha = word >> 24
                if alpha != 255 && alpha != 0 {
                    let row = Int(alpha) << 8
                    words[i] =
                        UInt32(table[row | Int(word & 0xFF)]) | UInt32(table[row | Int(word >> 8 & 0xFF)]) << 8
                        | UInt32(table[row | Int(word >> 16 & 0xFF)]) << 16 | alpha << 24
                }
            }
        }
    }
}
