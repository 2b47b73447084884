import Foundation

/// Damaged copies of real files for robustness tests: truncations and bit flips, seeded so that every run tries
/// the same copies.
///
/// ```swift
/// for copy in DataMutations.bitFlipped(data) { _ = try? coder.decode(copy, options: .init()) }
/// ```
///
/// Thread safety: stateless; safe from any thread.
public enum DataMutations {
    /// `copies` copies of `data`, each with 1 to 8 random bits flipped.
    public static func bitFlipped(_ data: Data, copies: Int = 100, seed: UInt64 = 100) -> [Data] {
        var random = SeededRandom(seed: seed)
        return (0..<copies).map { _ in
            var copy = [UInt8](data)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: 0..<copy.count, using: &random)
                copy[index] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
            }
            return Data(copy)
        }
    }

    /// `count` prefixes of `data`, cut at random lengths below `limit` (the whole length by default).
    public static func truncated(_ data: Data, count: Int = 32, seed: UInt64 = 32, below limit: Int? = nil) -> [Data] {
        var random = SeededRandom(seed: seed)
        let end = max(1, min(limit ?? data.count, data.count))
        return (0..<count).map { _ in data.prefix(Int.random(in: 0..<end, using: &random)) }
    }
}
