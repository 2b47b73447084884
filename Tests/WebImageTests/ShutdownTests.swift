import Foundation
import Testing
import WebImage
import WITestSupport

/// A manager made by `WebImage.makeManager()` owns its loader, caches and pools: shutting it down ends every
/// thread they started.
@Suite struct ShutdownTests {
    /// The threads of this process.
    static var threadCount: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
    }

    /// Makes a manager, loads through every stage that starts threads (loader, disk reads and writes, decoding,
    /// the disk cache's async overloads), and shuts it down.
    static func cycle(_ folder: URL, round: Int) async throws {
        let manager = try WebImage.makeManager(diskCacheRoot: folder.path + "/\(round)", allowLocalURLs: true)
        let url = Fixtures.url("formats/sample.png")
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 16, height: 16)
        let first = try await manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(first.cacheType == .none)
        (manager.cache as? TieredImageCache)?.memory?.removeAll()
        let second = try await manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(second.cacheType == .disk)
        await manager.shutdown()
        let refused = await #expect(throws: ImageError.self) { try await manager.loadImage(with: url) }
        #expect(refused?.code == .shutDown)
    }

    @Test func fiveManagersShutDownLeaveNoThreadBehind() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wi-shutdown-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A first round starts what the runtime keeps for the process (the cooperative pool, Dispatch's workers).
        try await Self.cycle(folder, round: 0)
        let baseline = Self.threadCount
        #expect(baseline > 0)
        for round in 1...5 { try await Self.cycle(folder, round: round) }
        // Joined threads are gone at once; Dispatch may still be retiring a worker of its own, so wait for the
        // count (an event), bounded.
        let deadline = ContinuousClock.now + .seconds(30)
        while Self.threadCount > baseline && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(Self.threadCount <= baseline)
    }
}
