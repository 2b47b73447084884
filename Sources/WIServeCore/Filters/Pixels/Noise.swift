import WICore
import WITransform

extension ThumborFilters {
    /// `noise(AMOUNT[,SEED])`: a random offset per pixel (WITransform's `NoiseTransformer`; without a seed, a
    /// random one). Lenient: any amount up to thumbor's C `int`.
    struct Noise: ThumborFilter {
        static let name = "noise"
        var amount: Int
        /// 0: none given.
        var seed: Int

        init(amount: Int, seed: Int) {
            self.amount = amount
            self.seed = seed
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...2)
            amount = try arguments.integer(0, arguments.strict ? 0...1000 : 0...Int(Int32.max))
            seed = arguments.count == 2 ? try arguments.integer(1, 0...Int(Int32.max)) : 0
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            // Without a seed thumbor continues its process's sequence: any noise is as good, so a random seed.
            try NoiseTransformer(
                amount: amount, seed: seed > 0 ? UInt32(truncatingIfNeeded: seed) : UInt32.random(in: 1...UInt32.max))
        }

        var description: String { "noise(amount: \(amount), seed: \(seed))" }
    }
}
