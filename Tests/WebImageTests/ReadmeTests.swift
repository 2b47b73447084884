import Foundation
import Testing
import WITestSupport

/// The README's quick start is `Examples/QuickStart/main.swift`, which `make test` builds: the block a new user
/// copies compiles as printed.
@Suite struct ReadmeTests {
    static let root = Fixtures.url("").deletingLastPathComponent().deletingLastPathComponent()

    @Test func theQuickStartIsTheProgramTheBuildCompiles() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let program = try String(contentsOf: Self.root.appendingPathComponent("Examples/QuickStart/main.swift"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Quick start in code"))
        let open = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
        let close = try #require(readme.range(of: "```\n", range: open.upperBound..<readme.endIndex))
        #expect(String(readme[open.upperBound..<close.lowerBound]) == program)
    }
}
