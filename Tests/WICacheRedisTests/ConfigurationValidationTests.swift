import Foundation
import Testing
import WICore
import WITestSupport
@testable import WICacheRedis

/// The Redis tier's settings give an exact `.invalidArgument` naming the value when the tier is made (no server is
/// needed); a port above Int32.max, a batch size of Int.max or a huge TTL used to trap.
@Suite struct ConfigurationValidationTests {
    @Test func boundaries() throws {
        try expectInvalid("port must be in 1...65535, got 0") { $0.port = 0 }
        try expectInvalid("port must be in 1...65535, got \(Int.max)") { $0.port = .max }
        try expectInvalid("database must be in 0...65535, got -1") { $0.database = -1 }
        try expectInvalid("maxEntrySize must be in 0...\(Int.max), got -1") { $0.maxEntrySize = -1 }
        try expectInvalid("timeToLive must be positive, got 0.0 seconds") { $0.timeToLive = .zero }
        try expectInvalid("connectTimeout must be in 0.001 seconds...86400.0 seconds, got 0.0 seconds") {
            $0.connectTimeout = .zero
        }
        try expectInvalid("commandTimeout must be in 0.001 seconds...86400.0 seconds, got 86401.0 seconds") {
            $0.commandTimeout = .seconds(86401)
        }
        try expectInvalid("reconnectDelay must be in 0.0 seconds...86400.0 seconds, got -1.0 seconds") {
            $0.reconnectDelay = .seconds(-1)
        }
        try expectInvalid("maxIdleConnections must be in 0...1024, got 1025") { $0.maxIdleConnections = 1025 }
        try expectInvalid("multiGetBatchSize must be in 1...100000, got \(Int.max)") { $0.multiGetBatchSize = .max }
        var edge = RedisCache.Configuration(port: 65535)
        (edge.maxIdleConnections, edge.multiGetBatchSize, edge.timeToLive) = (0, 100_000, .seconds(Int64.max))
        _ = try RedisCache(configuration: edge)
        _ = RedisCache()  // the defaults are valid: no `try` needed
    }

    /// Per-call durations are not validated (a store's own TTL): they saturate instead of overflowing.
    @Test func hugeDurationsSaturateInMilliseconds() {
        #expect(Duration.seconds(Int64.max).redisMilliseconds == .max)
        #expect(Duration.seconds(Int64.min).redisMilliseconds == 1)
        #expect(Duration.milliseconds(1500).redisMilliseconds == 1500)
        #expect(Duration.zero.redisMilliseconds == 1)
    }

    /// 2000 random configurations from a fixed seed: `validate()` refuses exactly the invalid ones.
    @Test func randomConfigurations() {
        var random = SeededRandom(seed: 0x4ED1_5021)
        var invalid = 0
        func integer() -> Int {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                return [0, -1, 1, 1024, 1025, 65535, 65536, 100_000, 100_001, .max, .min].randomElement(using: &random)!
            case 1: return Int.random(in: Int.min...Int.max, using: &random)
            default: return Int.random(in: 0...2000, using: &random)
            }
        }
        func duration() -> Duration {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                return [.zero, .milliseconds(1), .seconds(86400), .seconds(86401), .seconds(-1)].randomElement(
                    using: &random)!
            case 1: return .seconds(Int64.random(in: .min ... .max, using: &random))
            default: return .milliseconds(Int64.random(in: -10...100_000, using: &random))
            }
        }
        let day = Duration.seconds(86400)
        for _ in 0..<2000 {
            var c = RedisCache.Configuration(port: integer())
            (c.database, c.maxEntrySize, c.maxIdleConnections, c.multiGetBatchSize) = (
                integer(), integer(), integer(), integer()
            )
            c.timeToLive = Bool.random(using: &random) ? nil : duration()
            (c.connectTimeout, c.commandTimeout, c.reconnectDelay, c.maxReconnectDelay) = (
                duration(), duration(), duration(), duration()
            )
            let valid =
                (1...65535).contains(c.port) && (0...65535).contains(c.database) && c.maxEntrySize >= 0
                && (c.timeToLive.map { $0 > .zero } ?? true)
                && (Duration.milliseconds(1)...day).contains(c.connectTimeout)
                && (Duration.milliseconds(1)...day).contains(c.commandTimeout)
                && (Duration.zero...day).contains(c.reconnectDelay)
                && (Duration.zero...day).contains(c.maxReconnectDelay)
                && (0...1024).contains(c.maxIdleConnections) && (1...100_000).contains(c.multiGetBatchSize)
            if let mismatch = ValidationProperty.mismatch(valid: valid, { () throws(ImageError) in try c.validate() }) {
                Issue.record("\(mismatch): \(c)")
            }
            if !valid { invalid += 1 }
        }
        #expect(invalid > 1500 && invalid < 2000, "\(invalid)")
    }

    func expectInvalid(
        _ message: String, _ change: (inout RedisCache.Configuration) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var configuration = RedisCache.Configuration()
        change(&configuration)
        let error = #expect(throws: ImageError.self, sourceLocation: sourceLocation) {
            try RedisCache(configuration: configuration)
        }
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }
}
