import WICore

/// thumbor's `noise(amount[, seed])`: one random offset per pixel, in `-(amount / 2) ..< amount - amount / 2`, added
/// to red, green and blue (clamped; alpha left alone). With a seed the offsets are the C library's: thumbor seeds
/// glibc's `random()` with it, and `GlibcRandom` reproduces that generator, so the result is thumbor's byte for byte;
/// without one thumbor continues its process's global sequence, so any noise is as good (a random seed here).
///
/// Thread safety: an immutable value; safe from any thread (each frame gets a generator of its own).
struct ThumborNoise: Sendable {
    let amount: Int
    let seed: UInt32

    init(amount: Int, seed: Int) {
        self.amount = amount
        var system = SystemRandomNumberGenerator()
        self.seed = seed > 0 ? UInt32(truncatingIfNeeded: seed) : UInt32.random(in: 1...UInt32.max, using: &system)
    }

    /// Every frame of `image` with noise (each frame from the same seed, as thumbor runs the filter per frame).
    func apply(to image: Image) throws(ImageError) -> Image {
        guard amount > 0 else { return image }
        return try image.mappingFrames { (pixels) throws(ImageError) in
            var bytes = try pixels.converted(to: .rgba8).packedBytes()
            var random = GlibcRandom(seed: seed)
            for index in stride(from: 0, to: bytes.count, by: 4) {
                let offset = Int(random.next() % UInt32(amount)) - amount / 2
                for channel in 0..<3 { bytes[index + channel] = UInt8(min(max(Int(bytes[index + channel]) + offset, 0), 255)) }
            }
            return try PixelBuffer(width: pixels.width, height: pixels.height, format: .rgba8, bytes: bytes)
        }
    }
}

/// glibc's `random()` after `srandom(seed)` (its default additive feedback generator, degree 31): the state filled
/// by the Lehmer generator x' = 16807 x mod (2^31 - 1) from the seed, then each value the sum of the values 31 and 3
/// places back (mod 2^32), returned without its low bit, the first 310 discarded.
///
/// Thread safety: a value type; each user owns its state.
struct GlibcRandom {
    private var state: [UInt32]
    private var position = 0

    init(seed: UInt32) {
        var words = [Int32](repeating: 0, count: 34)
        words[0] = Int32(bitPattern: seed == 0 ? 1 : seed)
        for i in 1..<31 {
            // 16807 x mod (2^31 - 1) without overflow (Schrage's method), as glibc computes it.
            let high = words[i - 1] / 127_773, low = words[i - 1] % 127_773
            var word = 16_807 &* low &- 2_836 &* high
            if word < 0 { word &+= 2_147_483_647 }
            words[i] = word
        }
        for i in 31..<34 { words[i] = words[i - 31] }
        state = words.map { UInt32(bitPattern: $0) }
        for _ in 0..<310 { _ = next() }
    }

    /// The next value, 0 ..< 2^31.
    mutating func next() -> UInt32 {
        let value = state[(position + 3) % 34] &+ state[(position + 31) % 34]
        state[position % 34] = value
        position = (position + 1) % 34
        return value >> 1
    }
}
