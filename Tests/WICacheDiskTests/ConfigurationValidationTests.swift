import Foundation
import Testing
import WICore
import WITestSupport
import WICacheDisk

/// The disk cache's settings from a caller give an exact `.invalidArgument` naming the value, before any file is
/// touched; a NaN trim ratio used to trap in the first size trim.
@Suite struct ConfigurationValidationTests {
    @Test func boundaries() throws {
        try expectInvalid("maxAge must be a finite number, got nan") { $0.maxAge = .nan }
        try expectInvalid("maxAge must be a finite number, got -inf") { $0.maxAge = -.infinity }
        try expectInvalid("sizeLimit must be >= 0, got -1") { $0.sizeLimit = -1 }
        try expectInvalid("trimRatio must be a finite number in 0...1, got nan") { $0.trimRatio = .nan }
        try expectInvalid("trimRatio must be a finite number in 0...1, got 2.0") { $0.trimRatio = 2 }
        try expectInvalid("trimInterval must be positive, got 0.0 seconds") { $0.trimInterval = .zero }
        try expectInvalid("staleTemporaryFileAge must be a finite number >= 0, got -1.0") {
            $0.staleTemporaryFileAge = -1
        }
        var edge = DiskCache.Configuration()
        (edge.maxAge, edge.sizeLimit, edge.trimRatio, edge.trimInterval) = (-1, 0, 0, nil)
        let directory = TestDirectory()
        _ = try DiskCache(directory: directory("edge"), configuration: edge)
    }

    /// 3000 random configurations from a fixed seed: `validate()` refuses exactly the invalid ones with
    /// `.invalidArgument`.
    @Test func randomConfigurations() {
        var random = SeededRandom(seed: 0xD15C_0021)
        var invalid = 0
        for _ in 0..<3000 {
            var configuration = DiskCache.Configuration()
            configuration.maxAge = Self.real(&random)
            let scale: Int64 = Bool.random(using: &random) ? 1 : .max / 3
            configuration.sizeLimit = Int64.random(in: -3...3, using: &random) * scale
            configuration.trimRatio = Self.real(&random)
            configuration.trimInterval =
                Bool.random(using: &random)
                ? nil : .milliseconds(Int64.random(in: -2...2, using: &random))
            configuration.staleTemporaryFileAge = Self.real(&random)
            let valid =
                configuration.maxAge.isFinite && configuration.sizeLimit >= 0
                && (0...1).contains(configuration.trimRatio) && (configuration.trimInterval.map { $0 > .zero } ?? true)
                && configuration.staleTemporaryFileAge.isFinite && configuration.staleTemporaryFileAge >= 0
            let check = { () throws(ImageError) in try configuration.validate() }
            if let mismatch = ValidationProperty.mismatch(valid: valid, check) { Issue.record("\(mismatch)") }
            if !valid { invalid += 1 }
        }
        #expect(invalid > 1000 && invalid < 2900, "\(invalid)")
    }

    static func real(_ random: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return [0, 1, -1, .nan, .infinity, -.infinity, 1.5, 3600].randomElement(using: &random)!
        case 1: return Double(bitPattern: random.next())
        default: return Double.random(in: -0.5...1.5, using: &random)
        }
    }

    func expectInvalid(
        _ message: String, _ change: (inout DiskCache.Configuration) -> Void,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var configuration = DiskCache.Configuration()
        change(&configuration)
        let directory = TestDirectory()
        let error = #expect(throws: ImageError.self, sourceLocation: sourceLocation) {
            try DiskCache(directory: directory("cache"), configuration: configuration)
        }
        #expect(error?.code == .invalidArgument, sourceLocation: sourceLocation)
        #expect(error?.message == message, sourceLocation: sourceLocation)
        #expect(
            directory.names().isEmpty, "nothing is created for a refused configuration", sourceLocation: sourceLocation)
    }
}
