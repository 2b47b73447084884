import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestSupport

/// Timeouts and counts from a caller give an exact `.invalidArgument` naming the value when the loader is made; a
/// NaN or huge timeout used to trap when the first transfer converted it to milliseconds.
@Suite struct ConfigurationValidationTests {
    @Test func boundaries() throws {
        try expectInvalid("maxConcurrentTransfers must be in 1...1024, got 0") { $0.maxConcurrentTransfers = 0 }
        try expectInvalid("connectTimeout must be a finite number in 0.001...86400, got nan") {
            $0.connectTimeout = .nan
        }
        try expectInvalid("connectTimeout must be a finite number in 0.001...86400, got 1e+300") {
            $0.connectTimeout = 1e300
        }
        try expectInvalid("totalTimeout must be a finite number in 0.001...86400, got 0.0") { $0.totalTimeout = 0 }
        try expectInvalid("lowSpeedLimit must be in 0...2147483647, got -1") { $0.lowSpeedLimit = -1 }
        try expectInvalid("lowSpeedTime must be in 0...2147483647, got \(Int.max)") { $0.lowSpeedTime = .max }
        try expectInvalid("progressInterval must be a finite number in 0...86400, got inf") {
            $0.progressInterval = .infinity
        }
        try expectInvalid("maximumRedirects must be in 0...100, got -1") { $0.maximumRedirects = -1 }
        try expectInvalid("maximumBodySize must be >= 0, got -5") { $0.maximumBodySize = -5 }
        try expectInvalid("resumeDataBudget must be >= 0, got -1") { $0.resumeDataBudget = -1 }
        try expectInvalid("retryPolicy.maximumRetries must be in 0...100, got 101") {
            $0.retryPolicy = .init(maximumRetries: 101)
        }
        try expectInvalid("retryPolicy.initialDelay must be a finite number in 0...86400, got nan") {
            $0.retryPolicy = .init(maximumRetries: 1, initialDelay: .nan)
        }
        try expectInvalid("retryPolicy.maximumDelay must be a finite number in 0...86400, got -1.0") {
            $0.retryPolicy = .init(maximumRetries: 1, maximumDelay: -1)
        }
        var edge = CurlImageLoader.Configuration()
        (edge.maxConcurrentTransfers, edge.connectTimeout, edge.totalTimeout) = (1024, 0.001, 86400)
        (edge.lowSpeedLimit, edge.lowSpeedTime, edge.maximumRedirects) = (0, Int(Int32.max), 100)
        _ = try CurlImageLoader(configuration: edge)
    }

    /// 3000 random configurations from a fixed seed: `validate()` refuses exactly the invalid ones.
    @Test func randomConfigurations() {
        var random = SeededRandom(seed: 0xC0F1_6021)
        var invalid = 0
        for _ in 0..<3000 {
            var c = CurlImageLoader.Configuration()
            c.maxConcurrentTransfers = Self.integer(&random)
            c.connectTimeout = Self.real(&random)
            c.totalTimeout = Bool.random(using: &random) ? nil : Self.real(&random)
            c.lowSpeedLimit = Self.integer(&random)
            c.lowSpeedTime = Self.integer(&random)
            c.progressInterval = Self.real(&random)
            c.maximumRedirects = Self.integer(&random)
            c.retryPolicy = .init(
                maximumRetries: Self.integer(&random), initialDelay: Self.real(&random),
                maximumDelay: Self.real(&random))
            let day = 86400.0
            let valid =
                (1...1024).contains(c.maxConcurrentTransfers) && (0.001...day).contains(c.connectTimeout)
                && (c.totalTimeout.map { (0.001...day).contains($0) } ?? true)
                && (0...Int(Int32.max)).contains(c.lowSpeedLimit) && (0...Int(Int32.max)).contains(c.lowSpeedTime)
                && (0...day).contains(c.progressInterval) && (0...100).contains(c.maximumRedirects)
                && (0...100).contains(c.retryPolicy.maximumRetries) && (0...day).contains(c.retryPolicy.initialDelay)
                && (0...day).contains(c.retryPolicy.maximumDelay)
            if let mismatch = ValidationProperty.mismatch(valid: valid, { () throws(ImageError) in try c.validate() }) {
                Issue.record("\(mismatch): \(c)")
            }
            if !valid { invalid += 1 }
        }
        #expect(invalid > 2000 && invalid < 3000, "\(invalid)")
    }

    static func integer(_ random: inout SeededRandom) -> Int {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return [0, -1, 1, 100, 101, 1024, 1025, .max, .min, Int(Int32.max), Int(Int32.max) + 1]
                .randomElement(using: &random)!
        case 1: return Int.random(in: Int.min...Int.max, using: &random)
        default: return Int.random(in: 0...20, using: &random)
        }
    }

    static func real(_ random: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return [0, 0.001, 0.0009, .nan, .infinity, -.infinity, 86400, 86400.5, -1].randomElement(using: &random)!
        case 1: return Double(bitPattern: random.next())
        default: return Double.random(in: 0...30, using: &random)
        }
    }

    func expectInvalid(
        _ message: String, _ change: (inout CurlImageLoader.Configuration) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var configuration = CurlImageLoader.Configuration()
        change(&configuration)
        let error = #expect(throws: ImageError.self, sourceLocation: sourceLocation) {
            try CurlImageLoader(configuration: configuration)
        }
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
    }
}
