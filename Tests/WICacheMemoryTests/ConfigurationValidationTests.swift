import Testing
import WICore
import WITestSupport
@testable import WICacheMemory

/// Limits from a caller give an exact `.invalidArgument` naming the value, or a cache that keeps them; never a trap
/// (an absurd shard count used to allocate 2^62 shards).
@Suite struct ConfigurationValidationTests {
    @Test func boundaries() throws {
        try expectInvalid("costLimit must be in 0...\(Int.max), got -1") { .init(costLimit: -1) }
        try expectInvalid("countLimit must be in 0...\(Int.max), got \(Int.min)") { .init(countLimit: .min) }
        try expectInvalid("maxEntryCostRatio must be a finite number in 0...1, got nan") {
            .init(maxEntryCostRatio: .nan)
        }
        try expectInvalid("maxEntryCostRatio must be a finite number in 0...1, got 1.5") {
            .init(maxEntryCostRatio: 1.5)
        }
        try expectInvalid("pressureTrimRatio must be a finite number in 0...1, got -inf") {
            .init(pressureTrimRatio: -.infinity)
        }
        try expectInvalid("timeToLive must be positive, got 0.0 seconds") { .init(timeToLive: .zero) }
        try expectInvalid("shardCount must be in 1...256, got \(Int.max)") { .init(shardCount: .max) }
        try expectInvalid("shardCount must be in 1...256, got 0") { .init(shardCount: 0) }
        let edge = try MemoryCache(
            configuration: .init(
                costLimit: 0, countLimit: 0, maxEntryCostRatio: 1,
                pressureTrimRatio: 0, shardCount: 256))
        #expect(edge.shardCount == 256 && edge.costLimit == 0)
        #expect(MemoryCache().configuration.costLimit > 0)  // the defaults are valid: no `try` needed
    }

    /// 2000 random configurations from a fixed seed: invalid ones throw exactly `.invalidArgument`; valid ones make
    /// a cache that holds an image within its limits.
    @Test func randomConfigurations() throws {
        var random = SeededRandom(seed: 0xCAC4_E021)
        var invalid = 0
        for _ in 0..<2000 {
            let configuration = MemoryCache.Configuration(
                costLimit: Self.integer(&random), countLimit: Self.integer(&random),
                maxEntryCostRatio: Self.real(&random), usesWeakTier: .random(using: &random),
                timeToLive: Bool.random(using: &random) ? nil : .milliseconds(Int64(Self.integer(&random) % 1_000_000)),
                pressureTrimRatio: Self.real(&random),
                shardCount: Bool.random(using: &random) ? nil : Self.integer(&random) % 1000)
            let valid =
                configuration.costLimit >= 0 && configuration.countLimit >= 0
                && (0...1).contains(configuration.maxEntryCostRatio)
                && (0...1).contains(configuration.pressureTrimRatio)
                && (configuration.timeToLive.map { $0 > .zero } ?? true)
                && (configuration.shardCount.map { (1...256).contains($0) } ?? true)
            let check = { () throws(ImageError) in
                let cache = try MemoryCache(configuration: configuration)
                cache.setImage(makeImage(cost: 64), forKey: "k")
                #expect(cache.totalCost <= configuration.costLimit && cache.count <= configuration.countLimit)
            }
            if let mismatch = ValidationProperty.mismatch(valid: valid, check) { Issue.record("\(mismatch)") }
            if !valid { invalid += 1 }
        }
        #expect(invalid > 500 && invalid < 1900, "\(invalid)")
    }

    static func integer(_ random: inout SeededRandom) -> Int {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return [0, -1, 1, .max, .min, 255, 256, 257].randomElement(using: &random)!
        case 1: return Int.random(in: Int.min...Int.max, using: &random)
        default: return Int.random(in: -10...100_000, using: &random)
        }
    }

    static func real(_ random: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return [0, 1, -0.0, .nan, .infinity, -.infinity, 1.0000001, -1].randomElement(using: &random)!
        case 1: return Double(bitPattern: random.next())
        default: return Double.random(in: -0.2...1.2, using: &random)
        }
    }

    func expectInvalid(
        _ message: String, _ make: () -> MemoryCache.Configuration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let configuration = make()
        let error = #expect(throws: ImageError.self, sourceLocation: sourceLocation) {
            try MemoryCache(configuration: configuration)
        }
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }
}
