// swift-format-ignore-file
// (its regions are compared, character for character, with the documents' code blocks)
import Foundation
import Testing
import WITestServer
import WITestSupport

/// Every Swift block of the README, the guide, the service reference and the DocC catalogs is code the build compiles: each is a region of a file in
/// this target, or of an example (`// doc:begin` ... `// doc:end`, compared after removing the region's
/// indentation), or the quick start program itself; and the quick start runs against a loopback server.
@Suite struct DocumentationBlocksTests {
    static let root = Fixtures.url("").deletingLastPathComponent().deletingLastPathComponent()

    /// The documents whose Swift blocks must compile.
    static func documents() throws -> [String] {
        let catalogs = try FileManager.default.subpathsOfDirectory(atPath: root.appendingPathComponent("Sources").path)
            .filter { $0.contains(".docc/") && $0.hasSuffix(".md") }.map { "Sources/" + $0 }
        return ["README.md", "docs/GUIDE.md", "docs/SERVE.md"] + catalogs.sorted()
    }

    /// The ```swift blocks of `text`.
    static func blocks(in text: String) -> [String] {
        var blocks: [String] = [], current: [Substring]? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The `// doc:begin` ... `// doc:end` regions of `text`, each without the indentation of its begin line.
    static func regions(in text: String) -> [String] {
        var regions: [String] = [], current: [Substring]? = nil, indent = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed == "// doc:begin" {
                current = []
                indent = line.count - trimmed.count
            } else if trimmed == "// doc:end", let lines = current {
                regions.append(lines.map { $0.prefix(indent).allSatisfy { $0 == " " } ? $0.dropFirst(indent) : $0 }
                    .joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return regions
    }

    /// The regions of this target's files and of the examples the build compiles.
    static func compiledRegions() throws -> Set<String> {
        var regions: Set<String> = []
        for folder in ["Tests/DocumentationTests", "Examples/CustomPlugins"] {
            let directory = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                regions.formUnion(Self.regions(in: text))
            }
        }
        let quickStart = try String(contentsOf: root.appendingPathComponent("Examples/QuickStart/main.swift"), encoding: .utf8)
        regions.insert(String(quickStart.dropLast()))   // the whole program, without its last newline
        return regions
    }

    @Test func everySwiftBlockIsCompiled() throws {
        let compiled = try Self.compiledRegions()
        var checked = 0
        for document in try Self.documents() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
            for block in Self.blocks(in: text) {
                let found = compiled.contains(block)
                #expect(found, "\(document): this block is in no compiled region:\n\(block)")
                checked += 1
            }
        }
        #expect(checked == 20)   // README 2, GUIDE 4, the WICore articles 12, WITransform 1, WIServe 1
    }

    @Test func regionsAreFoundAsWritten() {
        let text = "x\n    // doc:begin\n    let a = 1\n      b()\n    // doc:end\n"
        #expect(Self.regions(in: text) == ["let a = 1\n  b()"])
        #expect(Self.blocks(in: "t\n```swift\nlet a = 1\n```\n```sh\nls\n```\n") == ["let a = 1"])
    }

    /// The quick start, built by `make test`, loads a PNG from a loopback server and prints what came back.
    @Test func theQuickStartRunsAgainstALoopbackServer() async throws {
        let server = try await TestHTTPServer.start()
        let png = try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))
        server.route("/cat.png") { _ in TestResponse(body: png, contentType: "image/png") }
        let result = try CommandRunner.run(CommandRunner.productPath("quickstart"), ["http://127.0.0.1:\(server.port)/cat.png"])
        await server.stop()
        #expect(result.status == 0)
        #expect(result.stdout == "png 64x64, 1 frame(s), from none\n")
    }
}
