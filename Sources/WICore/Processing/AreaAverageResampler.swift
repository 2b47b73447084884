extension ImageCoding {
    /// A dependency-free resampler: exact area averaging when shrinking (no aliasing), bilinear when enlarging.
    ///
    /// Works in premultiplied alpha, so transparent pixels never bleed colour, and returns the input's format.
    ///
    /// Thread safety: stateless; safe from any thread.
    public struct AreaAverageResampler: ImageResampler {
        public init() {}

        public func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer {
            if size == buffer.size { return buffer }
            var output = try PixelBuffer(width: size.width, height: size.height, format: buffer.format, zeroed: false)
            let horizontal = Self.contributions(source: buffer.width, target: size.width)
            let vertical = Self.contributions(source: buffer.height, target: size.height)
            let maximum: Float = buffer.format.bitsPerComponent == 8 ? 255 : 65535
            let premultiplied = buffer.format.isPremultiplied
            let wide = buffer.format.bitsPerComponent == 16

            // Pass 1: each source row to `size.width` premultiplied float pixels.
            var temporary = [SIMD4<Float>](repeating: .zero, count: size.width * buffer.height)
            buffer.withUnsafeBytes { input in
                var row = [SIMD4<Float>](repeating: .zero, count: buffer.width)
                for y in 0..<buffer.height {
                    let base = input.baseAddress! + y * buffer.bytesPerRow
                    for x in 0..<buffer.width {
                        var p: SIMD4<Float>
                        if wide {
                            let q = base.assumingMemoryBound(to: UInt16.self) + x * 4
                            p = SIMD4(Float(q[0]), Float(q[1]), Float(q[2]), Float(q[3]))
                        } else {
                            let q = base.assumingMemoryBound(to: UInt8.self) + x * 4
                            p = SIMD4(Float(q[0]), Float(q[1]), Float(q[2]), Float(q[3]))
                        }
                        if !premultiplied {
                            let a = p[3] / maximum
                            p = SIMD4(p[0] * a, p[1] * a, p[2] * a, p[3])
                        }
                        row[x] = p
                    }
                    for (x, c) in horizontal.enumerated() {
                        var sum = SIMD4<Float>.zero
                        for (k, w) in c.weights.enumerated() { sum += row[c.start + k] * w }
                        temporary[y * size.width + x] = sum
                    }
                }
            }
            // Pass 2: columns to `size.height`, back to the input's alpha form and depth.
            let outputRowBytes = output.bytesPerRow
            try output.withUnsafeMutableBytes { out in
                for (y, c) in vertical.enumerated() {
                    let base = out.baseAddress! + y * outputRowBytes
                    for x in 0..<size.width {
                        var p = SIMD4<Float>.zero
                        for (k, w) in c.weights.enumerated() { p += temporary[(c.start + k) * size.width + x] * w }
                        let alpha = Swift.min(Swift.max(p[3], 0), maximum)
                        if !premultiplied {
                            let factor: Float = alpha > 0 ? maximum / alpha : 0
                            p = SIMD4(p[0] * factor, p[1] * factor, p[2] * factor, alpha)
                        }
                        p = (p + 0.5).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: maximum))
                        if wide {
                            let q = base.assumingMemoryBound(to: UInt16.self) + x * 4
                            for i in 0..<4 { q[i] = UInt16(p[i]) }
                        } else {
                            let q = base.assumingMemoryBound(to: UInt8.self) + x * 4
                            for i in 0..<4 { q[i] = UInt8(p[i]) }
                        }
                    }
                }
            }
            return output
        }

        struct Contribution {
            var start: Int
            var weights: [Float]
        }

        /// For each target index, the source indices it reads and their normalized weights.
        static func contributions(source: Int, target: Int) -> [Contribution] {
            let scale = Double(source) / Double(target)
            return (0..<target).map { i in
                if scale >= 1 {
                    // Area average: the target pixel covers [lo, hi) of the source.
                    let lo = Double(i) * scale
                    let hi = lo + scale
                    let start = Int(lo.rounded(.down))
                    let end = Swift.min(source, Int(hi.rounded(.up)))
                    var weights = (start..<end).map { Float(Swift.min(hi, Double($0 + 1)) - Swift.max(lo, Double($0))) }
                    let total = weights.reduce(0, +)
                    weights = weights.map { $0 / total }
                    return Contribution(start: start, weights: weights)
                }
                // Bilinear between the two nearest source centres.
                let centre = (Double(i) + 0.5) * scale - 0.5
                let left = Swift.max(0, Swift.min(source - 1, Int(centre.rounded(.down))))
                let right = Swift.min(source - 1, left + 1)
                let fraction = Float(Swift.max(0, Swift.min(1, centre - Double(left))))
                return right == left
                    ? Contribution(start: left, weights: [1])
                    : Contribution(start: left, weights: [1 - fraction, fraction])
            }
        }
    }
}
