import Testing
import WICore
@testable import WIServe
@testable import WIServeCore

/// The configuration's checks (what `wi serve` reports as usage errors), Redis URLs and `--allow-host` resolution.
@Suite struct ServeConfigurationTests {
    @Test func defaultsAreValidAndSafe() throws {
        let configuration = ServeConfiguration()
        try configuration.validate()
        #expect(configuration.bind == "127.0.0.1" && configuration.port == 8888)
        #expect(configuration.key == nil && !configuration.allowUnsafe && configuration.allowedHosts.isEmpty)
        #expect(configuration.maxPixels == 50_000_000 && configuration.maxSourceBytes == 32 << 20)
        // thumbor's answers unless --strict.
        #expect(!configuration.strict)
    }

    @Test func outOfRangeValuesAreInvalidArguments() {
        func changed(_ change: (inout ServeConfiguration) -> Void) -> ServeConfiguration {
            var configuration = ServeConfiguration()
            change(&configuration)
            return configuration
        }
        let cases: [(ServeConfiguration, String)] = [
            (changed { $0.port = 70000 }, "port must be in 0...65535, got 70000"),
            (changed { $0.maxPixels = 0 }, "max-pixels must be in 1...268435456, got 0"),
            (changed { $0.concurrency = 0 }, "concurrency must be in 1...4096, got 0"),
            (changed { $0.queue = -1 }, "queue must be in 0...1000000, got -1"),
            (changed { $0.timeout = .nan }, "timeout must be in (0, 86400] seconds, got nan"),
            (changed { $0.redisURL = "http://x" }, "redis must be redis://host[:port][/db], got http://x"),
        ]
        for (configuration, message) in cases {
            do {
                try configuration.validate()
                Issue.record("accepted: \(message)")
            } catch {
                #expect(error.code == .invalidArgument)
                #expect(error.message == message)
            }
        }
    }

    @Test func redisAddresses() {
        #expect(RedisAddress("redis://cache.internal") == RedisAddress(host: "cache.internal", port: 6379, database: 0))
        #expect(RedisAddress("redis://127.0.0.1:6380/3") == RedisAddress(host: "127.0.0.1", port: 6380, database: 3))
        #expect(RedisAddress("redis://host/16") == nil)
        #expect(RedisAddress("redis://") == nil)
        #expect(RedisAddress("rediss://host") == nil)
    }

    @Test func allowedHostsResolveToTheAddressesThePolicyCompares() {
        #expect(HostAddresses.resolve("127.0.0.1") == ["127.0.0.1"])
        #expect(HostAddresses.resolve("[::1]") == ["::1"])
        #expect(HostAddresses.resolve("localhost").contains("127.0.0.1"))
        #expect(HostAddresses.resolve("no-such-host.invalid").isEmpty)
        #expect(ImageServiceParts.normalized(host: "[::1]") == "::1")
        #expect(ImageServiceParts.normalized(host: "Example.COM") == "example.com")
    }
}
