import WICore

/// Adds one random offset per pixel, in `-(amount / 2) ..< amount - amount / 2`, to red, green and blue (clamped;
/// alpha left alone), from a seeded generator: the same seed gives the same noise.
///
/// thumbor 7.8's `noise(amount, seed)`: thumbor seeds glibc's `random()` with the seed, and `GlibcRandom`
/// reproduces that generator, so the result is thumbor's byte for byte (Tests/Fixtures/serve-color); every frame
/// gets the same offsets, as thumbor runs the filter per frame. 16-bit frames stay 16-bit (offsets scaled by
/// 257). Key: `Noise(30,7)`.
///
/// ```swift
/// let grainy = try NoiseTransformer(amount: 30, seed: 7).transform(image)
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once (each frame gets a generator of its own).
public struct NoiseTransformer: ImageTransformer, Hashable {
    /// The width of the offsets' range in 8-bit levels, 0...2147483647 (thumbor's C `int`; 0 changes nothing).
    public let amount: Int
    /// The generator's seed (1...UInt32.max).
    public let seed: UInt32

    /// Throws `.invalidArgument` unless `amount` is in 0...2147483647 and `seed` is not 0.
    public init(amount: Int, seed: UInt32) throws(ImageError) {
        try ArgumentCheck.within(amount, 0...Int(Int32.max), "noise amount")
        guard seed != 0 else { throw ArgumentCheck.invalid("noise seed", "be at least 1", "0") }
        (self.amount, self.seed) = (amount, seed)
    }

    public var key: String { TransformerKey.make("Noise", [String(amount), String(seed)]) }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        guard amount > 0 else { return image }
        return try FrameSamples.map(
            image, eight: { (samples, _, _, _) throws(ImageError) in try noisy(samples) },
            sixteen: { (samples, _, _, _) throws(ImageError) in try noisy(samples) })
    }

    /// The samples with noise; throws `.cancelled` every 65,536 pixels once the pool job is cancelled.
    private func noisy<Sample: FixedWidthInteger & UnsignedInteger>(_ input: [Sample]) throws(ImageError) -> [Sample] {
        var samples = input
        let scale = Sample.max == 255 ? 1 : Int(Sample.max) / 255
        let maximum = Int(Sample.max)
        var random = GlibcRandom(seed: seed)
        for index in stride(from: 0, to: samples.count, by: 4) {
            if index & 0x3FFFF == 0 { try WorkerPool.checkCancellation() }
            let offset = (Int(random.next() % UInt32(amount)) - amount / 2) * scale
            for channel in 0..<3 {
                samples[index + channel] = Sample(min(max(Int(samples[index + channel]) + offset, 0), maximum))
            }
        }
        return samples
    }
}

/// glibc's `random()` after `srandom(seed)` (its default additive feedback generator, degree 31): the state filled
/// by the Lehmer generator x' = 16807 x mod (2^31 - 1) from the seed, then each value the sum of the values 31 and 3
/// places back (mod 2^32), returned without its low bit, the first 310 discarded.
///
/// Thread safety: a value type; each user owns its state.
package struct GlibcRandom {
    private var state: [UInt32]
    private var position = 0

    package init(seed: UInt32) {
        var words = [Int32](repeating: 0, count: 34)
        words[0] = Int32(bitPattern: seed == 0 ? 1 : seed)
        for i in 1..<31 {
            // 16807 x mod (2^31 - 1) without overflow (Schrage's method), as glibc computes it.
            let high = words[i - 1] / 127_773
            let low = words[i - 1] % 127_773
            var word = 16_807 &* low &- 2_836 &* high
            if word < 0 { word &+= 2_147_483_647 }
            words[i] = word
        }
        for i in 31..<34 { words[i] = words[i - 31] }
        state = words.map { UInt32(bitPattern: $0) }
        for _ in 0..<310 { _ = next() }
    }

    /// The next value, 0 ..< 2^31.
    package mutating func next() -> UInt32 {
        let value = state[(position + 3) % 34] &+ state[(position + 31) % 34]
        state[position % 34] = value
        position = (position + 1) % 34
        return value >> 1
    }
}
