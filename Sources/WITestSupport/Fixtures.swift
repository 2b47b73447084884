import Foundation

/// The committed test fixtures under Tests/Fixtures, found from this source file's location.
///
/// Thread safety: stateless; safe from any thread.
public enum Fixtures {
    /// Tests/Fixtures in the package checkout.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WITestSupport
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Tests/Fixtures", isDirectory: true)

    /// The URL of a fixture, by its path under Tests/Fixtures ("pngsuite/basn0g01.png").
    public static func url(_ path: String) -> URL { directory.appendingPathComponent(path) }

    /// The bytes of a fixture. Traps when it is missing: a missing fixture is a broken checkout, not a test result.
    public static func data(_ path: String) -> Data {
        guard let data = FileManager.default.contents(atPath: url(path).path) else {
            fatalError("missing fixture Tests/Fixtures/\(path)")
        }
        return data
    }

    /// The names of the files in a fixture folder, sorted.
    public static func files(in folder: String, withExtension pathExtension: String? = nil) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
        return names.filter { pathExtension == nil || ($0 as NSString).pathExtension == pathExtension }.sorted()
    }

    /// The package root (for tests that run built products).
    public static var packageRoot: URL { directory.deletingLastPathComponent().deletingLastPathComponent() }
}
