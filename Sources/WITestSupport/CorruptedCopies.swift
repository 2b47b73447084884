import Foundation

/// Damaged copies of a file for robustness tests: truncations and random bit flips, repeatable from a seed.
///
/// ```swift
/// for copy in CorruptedCopies.bitFlipped(data, copies: 100, seed: 100) { _ = try? coder.decode(copy, options: .init()) }
/// ```
///
/// Thread safety: stateless; safe from any thread.
public enum CorruptedCopies {
    /// `count` prefixes of `data`, cut at random offsets in `0..<data.count`.
    public static func truncated(_ data: Data, count: Int, seed: UInt64) -> [(cut: Int, data: Data)] {
        var random = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let cut = Int.random(in: 0..<data.count, using: &random)
            return (cut, data.prefix(cut))
        }
    }

    /// `copies` copies of `data`, each with 1 to 8 random bits flipped.
    public static func bitFlipped(_ data: Data, copies: Int, seed: UInt64) -> [Data] {
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
}
