import Foundation
import Testing
import WICacheDisk

@Suite struct ExtraPathTests {
    @Test func readOnlyPathsAnswerMisses() throws {
        let root = TestDirectory()
        let shipped = try DiskCache(name: "shipped", root: root.path, configuration: .testing())
        try shipped.store(Data("bundled".utf8), forKey: "https://example.com/logo.png")
        try shipped.store(Data("old".utf8), forKey: "both")
        var configuration = DiskCache.Configuration.testing()
        configuration.additionalReadOnlyPaths = [root("nothing-here"), root("shipped")]
        let cache = try DiskCache(name: "live", root: root.path, configuration: configuration)
        try cache.store(Data("new".utf8), forKey: "both")
        #expect(try cache.readData(forKey: "https://example.com/logo.png") == Data("bundled".utf8))
        #expect(cache.containsData(forKey: "https://example.com/logo.png"))
        #expect(try cache.readData(forKey: "both") == Data("new".utf8))  // the cache's own entry wins
        #expect(try cache.readData(forKey: "absent") == nil)
        #expect(cache.totalCount == 1)  // extra paths are not counted, trimmed or written
        try cache.remove(forKey: "https://example.com/logo.png")
        #expect(try cache.readData(forKey: "https://example.com/logo.png") == Data("bundled".utf8))
        try cache.removeAll()
        #expect(try shipped.readData(forKey: "both") == Data("old".utf8))
    }

    @Test func moveRenamesOrMerges() throws {
        let root = TestDirectory()
        let old = try DiskCache(directory: root("old"), configuration: .testing())
        try old.store(Data([1]), forKey: "a")
        try old.store(Data([2]), forKey: "b")
        try DiskCache.moveDirectory(from: root("old"), to: root("nested/new"))
        #expect(!FileManager.default.fileExists(atPath: root("old")))
        let moved = try DiskCache(directory: root("nested/new"), configuration: .testing())
        #expect(try moved.readData(forKey: "a") == Data([1]))
        #expect(moved.totalCount == 2)

        let other = try DiskCache(directory: root("other"), configuration: .testing())
        try other.store(Data([3]), forKey: "c")
        try other.store(Data([4]), forKey: "a")
        try DiskCache.moveDirectory(from: root("other"), to: root("nested/new"))
        #expect(!FileManager.default.fileExists(atPath: root("other")))
        let merged = try DiskCache(directory: root("nested/new"), configuration: .testing())
        #expect(merged.totalCount == 3)
        #expect(try merged.readData(forKey: "a") == Data([4]))
        #expect(try merged.readData(forKey: "c") == Data([3]))
        try DiskCache.moveDirectory(from: root("missing"), to: root("nested/new"))  // nothing to move
    }
}
