import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct LoadFlowTests {
    @Test func loadsThenServesFromMemoryThenDisk() async throws {
        let h = Harness()
        let url = h.serve("a.png", width: 40, height: 20)
        let first = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(first.cacheType == .none)
        #expect(first.image.size == PixelSize(width: 40, height: 20))
        #expect(first.data == h.coder.data(width: 40, height: 20, extra: "a.png"))
        #expect(h.memory.keys == [url.absoluteString])
        #expect(h.disk.keys == [url.absoluteString])
        let second = try await h.manager.loadImage(with: url)
        #expect(second.cacheType == .memory)
        #expect(second.image === first.image)
        h.memory.removeAll()
        let third = try await h.manager.loadImage(with: url)
        #expect(third.cacheType == .disk)
        #expect(third.image.size == PixelSize(width: 40, height: 20))
        #expect(h.memory.keys == [url.absoluteString])  // promoted back to memory
        #expect(h.loader.loadCount == 1)
        #expect(h.coder.decodeCount == 2)
    }

    @Test func queryTypeMemoryMissesADiskOnlyEntry() async throws {
        let h = Harness()
        let url = h.serve("a.png")
        h.disk.setData(h.coder.data(width: 5, height: 5), forKey: url.absoluteString)
        var context = ImageContext()
        context[.queryCacheType] = .memory
        let result = try await h.manager.loadImage(with: url, context: context)
        #expect(result.cacheType == .none)
        #expect(h.loader.loadCount == 1)
        let other = h.serve("b.png")
        h.disk.setData(h.coder.data(width: 5, height: 5), forKey: other.absoluteString)
        let fromDisk = try await h.manager.loadImage(with: other)  // default query type: all tiers
        #expect(fromDisk.cacheType == .disk)
        #expect(fromDisk.image.size == PixelSize(width: 5, height: 5))
        #expect(h.loader.loadCount == 1)
    }

    @Test func fromCacheOnlyAndFromLoaderOnly() async throws {
        let h = Harness()
        let url = h.serve("a.png")
        let miss = await #expect(throws: ImageError.self) {
            try await h.manager.loadImage(with: url, options: .fromCacheOnly)
        }
        #expect(miss?.code == .loadSkipped)
        #expect(h.loader.loadCount == 0)
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        let cached = try await h.manager.loadImage(with: url, options: .fromCacheOnly)
        #expect(cached.cacheType == .memory)
        let fresh = try await h.manager.loadImage(with: url, options: .fromLoaderOnly)
        #expect(fresh.cacheType == .none)
        #expect(h.loader.loadCount == 2)
    }

    @Test func storeCacheTypeAndAvoidStore() async throws {
        let h = Harness()
        var memoryOnly = ImageContext()
        memoryOnly[.storeCacheType] = .memory
        let a = h.serve("a.png")
        _ = try await h.manager.loadImage(with: a, options: .waitStoreCache, context: memoryOnly)
        #expect(h.memory.keys == [a.absoluteString])
        #expect(h.disk.keys.isEmpty)
        let b = h.serve("b.png")
        _ = try await h.manager.loadImage(with: b, options: [.waitStoreCache, .avoidStoreCache])
        #expect(!h.memory.keys.contains(b.absoluteString))
    }

    @Test func waitStoreCacheCompletesAfterTheStore() async throws {
        for _ in 0..<20 {
            let h = Harness()
            let url = h.serve("a.png")
            _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
            #expect(h.disk.containsData(forKey: url.absoluteString))  // already there when the load returns
        }
    }

    @Test func serializerChoosesTheDiskBytes() async throws {
        let serializer = CacheKeys.BlockSerializer { _, data, _ in data.map { Data("SER:".utf8) + $0 } }
        let h = Harness(cacheSerializer: serializer)
        let url = h.serve("a.png")
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(h.disk.data(forKey: url.absoluteString)?.starts(with: Data("SER:MOCK".utf8)) == true)
        let nothing = Harness(cacheSerializer: CacheKeys.BlockSerializer { _, _, _ in nil })
        let other = nothing.serve("b.png")
        _ = try await nothing.manager.loadImage(with: other, options: .waitStoreCache)
        #expect(nothing.disk.keys.isEmpty)  // nil data: no disk entry
        #expect(nothing.memory.keys == [other.absoluteString])
    }

    @Test func optionsProcessorReplacesOptionsAndContext() async throws {
        let processor = ImageManager.BlockOptionsProcessor { _, options, context in
            var context = context
            context[.thumbnailPixelSize] = PixelSize(width: 10, height: 10)
            return (options.union(.waitStoreCache), context)
        }
        let h = Harness(optionsProcessor: processor)
        let url = h.serve("a.png", width: 40, height: 20)
        let result = try await h.manager.loadImage(with: url)
        #expect(result.image.size == PixelSize(width: 10, height: 5))
        #expect(
            h.memory.keys == [
                CacheKeys.thumbnailed(url.absoluteString, size: .init(width: 10, height: 10), preserveAspectRatio: true)
            ])
    }

    @Test func decodeOptionsFromTheContext() async throws {
        let h = Harness()
        var context = ImageContext()
        context[.scaleDownLimitBytes] = 100  // 25 pixels
        context[.scaleFactor] = 2
        let result = try await h.manager.loadImage(with: h.serve("a.png", width: 40, height: 20), context: context)
        #expect(result.image.size == PixelSize(width: 7, height: 3))
        #expect(result.image.scale == 2)
        #expect(result.image.flags.contains(.thumbnail))
    }

    @Test func delegateCanRefuseLoading() async throws {
        struct NoLoads: ImageManagerDelegate { func shouldLoad(_ url: URL) -> Bool { false } }
        let h = Harness(delegate: NoLoads())
        let error = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: h.serve("a.png")) }
        #expect(error?.code == .loadSkipped)
        #expect(h.loader.loadCount == 0)
    }

    @Test func eventsStreamReportsTheLoad() async throws {
        let h = Harness()
        let events = h.manager.events()
        let url = h.serve("a.png")
        _ = try await h.manager.loadImage(with: url)
        var kinds: [String] = []
        for await event in events {
            #expect(event.url == url)
            switch event.kind {
            case .started: kinds.append("started")
            case .response(let status): kinds.append("response \(status ?? 0)")
            case .progress: if kinds.last != "progress" { kinds.append("progress") }
            case .finished(let type): kinds.append("finished \(type)")
            default: kinds.append("other")
            }
            if kinds.last?.hasPrefix("finished") == true { break }
        }
        #expect(kinds == ["started", "progress", "response 200", "progress", "finished none"])
    }
}
