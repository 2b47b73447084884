import Foundation
import Synchronization
import Testing
import WICore
import WITestSupport

/// One test per context key or option that changes a load, each showing what it changes (SDWebImage's
/// `SDWebImageContextOption`s and `SDWebImageOptions` of the same names).
@Suite struct ContextKeyTests {
    @Test func imageCacheReplacesTheManagersCacheForThatLoad() async throws {
        let h = Harness()
        let url = h.serve("a.png")
        let memory = MockMemoryCache()
        let disk = MockDataCache()
        let own = TieredImageCache(memory: memory, dataTiers: [disk], coders: h.coder)
        var context = ImageContext()
        context[.imageCache] = own
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(memory.keys == [url.absoluteString])
        #expect(disk.keys == [url.absoluteString])
        #expect(h.memory.keys.isEmpty && h.disk.keys.isEmpty)
        #expect(try await h.manager.loadImage(with: url, context: context).cacheType == .memory)
        #expect(h.loader.loadCount == 1)
        // The manager's own cache never saw it: a load without the key goes to the network.
        #expect(try await h.manager.loadImage(with: url).cacheType == .none)
        #expect(h.loader.loadCount == 2)
        await own.shutdown()
    }

    @Test func imageLoaderReplacesTheManagersLoaderForThatLoad() async throws {
        let h = Harness()
        let url = h.serve("b.png", width: 40, height: 20)
        let other = MockLoader()
        other.register(url, data: h.coder.data(width: 6, height: 3))
        var context = ImageContext()
        context[.imageLoader] = other
        let result = try await h.manager.loadImage(with: url, options: .fromLoaderOnly, context: context)
        #expect(result.image.size == PixelSize(width: 6, height: 3))
        #expect(other.startedURLs == [url.absoluteString])
        #expect(h.loader.loadCount == 0)
        let plain = try await h.manager.loadImage(with: url, options: .fromLoaderOnly)
        #expect(plain.image.size == PixelSize(width: 40, height: 20))
        #expect(h.loader.loadCount == 1 && other.loadCount == 1)
    }

    /// Encodes with the mock format and writes the quality it was given into the bytes.
    final class QualityCoder: ImageCoder, Sendable {
        let inner = MockCoder(magic: "MOCK", marker: 7)
        var decodingFormats: [ImageFormat] { inner.decodingFormats }
        func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
        func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
            try inner.decode(data, options: options)
        }
        func canEncode(to format: ImageFormat) -> Bool { inner.canEncode(to: format) }
        func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
            inner.data(width: image.width, height: image.height, extra: "quality \(options.quality)")
        }
    }

    /// A transformed image has no bytes of its own: the cache encodes it for disk with the context's options.
    @Test func encodeOptionsAreWhatTheCacheEncodesATransformedImageWith() async throws {
        let coder = QualityCoder()
        let loader = MockLoader()
        let disk = MockDataCache()
        let cache = TieredImageCache(memory: MockMemoryCache(), dataTiers: [disk], coders: coder)
        let manager = ImageManager(cache: cache, loader: loader, coders: coder)
        for name in ["q.png", "d.png"] {
            loader.register(URL(string: "mock://host/\(name)")!, data: coder.inner.data(width: 8, height: 8))
        }
        var context = ImageContext()
        context[.imageTransformer] = MockTransformer(key: "T")
        var low = context
        low[.encodeOptions] = EncodeOptions(quality: 0.25)
        _ = try await manager.loadImage(with: URL(string: "mock://host/q.png")!, options: .waitStoreCache, context: low)
        _ = try await manager.loadImage(
            with: URL(string: "mock://host/d.png")!, options: .waitStoreCache, context: context)
        #expect(
            disk.data(forKey: "mock://host/q-T.png") == coder.inner.data(width: 8, height: 8, extra: "quality 0.25"))
        #expect(disk.data(forKey: "mock://host/d-T.png") == coder.inner.data(width: 8, height: 8, extra: "quality 0.9"))
        await manager.shutdown()
        await cache.shutdown()
    }

    @Test func preserveAspectRatioFalseFillsTheThumbnailBoxUnderItsOwnKey() async throws {
        let h = Harness()
        let url = h.serve("r.png", width: 40, height: 20)
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 10, height: 10)
        let kept = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        context[.preserveAspectRatio] = false
        let filled = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(kept.image.size == PixelSize(width: 10, height: 5))
        #expect(filled.image.size == PixelSize(width: 10, height: 10))
        #expect(filled.cacheType == .disk)  // made from the original the first load stored
        #expect(
            h.memory.keys == [
                "mock://host/r-Thumbnail({10.000000,10.000000},0).png",
                "mock://host/r-Thumbnail({10.000000,10.000000},1).png",
            ])
        #expect(h.loader.loadCount == 1)
    }

    /// The original of a transformed image is looked for on disk only by default; `.memory` finds it in memory.
    @Test func originalQueryCacheTypeChoosesWhereTheOriginalIsLookedFor() async throws {
        let h = Harness()
        let url = h.serve("o.png", width: 8, height: 8)
        var memoryOnly = ImageContext()
        memoryOnly[.storeCacheType] = .memory
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: memoryOnly)
        #expect(h.memory.keys == [url.absoluteString] && h.disk.keys.isEmpty)

        var fromMemory = ImageContext()
        fromMemory[.imageTransformer] = MockTransformer(key: "A")
        fromMemory[.originalQueryCacheType] = .memory
        let a = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: fromMemory)
        #expect(a.cacheType == .memory)
        #expect(h.loader.loadCount == 1)

        var byDefault = ImageContext()
        byDefault[.imageTransformer] = MockTransformer(key: "B")
        let b = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: byDefault)
        #expect(b.cacheType == .none)  // disk only: not found, loaded again
        #expect(h.loader.loadCount == 2)
    }

    /// The original of a transformed download goes to disk by default; `.all` keeps it in memory too, `.none` nowhere.
    @Test func originalStoreCacheTypeChoosesWhereTheOriginalIsStored() async throws {
        let h = Harness()
        let all = h.serve("all.png", width: 8, height: 8)
        let none = h.serve("none.png", width: 8, height: 8)
        var context = ImageContext()
        context[.imageTransformer] = MockTransformer(key: "T")
        context[.originalStoreCacheType] = .all
        _ = try await h.manager.loadImage(with: all, options: .waitStoreCache, context: context)
        context[.originalStoreCacheType] = ImageCacheType.none
        _ = try await h.manager.loadImage(with: none, options: .waitStoreCache, context: context)
        #expect(h.memory.keys == ["mock://host/all-T.png", all.absoluteString, "mock://host/none-T.png"])
        #expect(h.disk.keys == ["mock://host/all-T.png", all.absoluteString, "mock://host/none-T.png"])
        #expect(h.disk.data(forKey: all.absoluteString) == h.coder.data(width: 8, height: 8, extra: "all.png"))
    }

    @Test func cacheKeyFilterInTheContextKeysThatLoadOnly() async throws {
        let h = Harness()
        let first = URL(string: "mock://host/k.png?signature=1")!
        let second = URL(string: "mock://host/k.png?signature=2")!
        h.loader.register(first, data: h.coder.data(width: 4, height: 4))
        h.loader.register(second, data: h.coder.data(width: 4, height: 4))
        var context = ImageContext()
        context[.cacheKeyFilter] = CacheKeys.BlockKeyFilter { url in
            url.absoluteString.split(separator: "?").first.map(String.init)
        }
        _ = try await h.manager.loadImage(with: first, options: .waitStoreCache, context: context)
        #expect(h.memory.keys == ["mock://host/k.png"])
        #expect(try await h.manager.loadImage(with: second, context: context).cacheType == .memory)
        #expect(h.loader.loadCount == 1)
        // Without it, the manager keys by the whole URL: a miss.
        #expect(try await h.manager.loadImage(with: second, options: .waitStoreCache).cacheType == .none)
        #expect(h.memory.keys == ["mock://host/k.png", second.absoluteString])
    }

    @Test func cacheSerializerInTheContextChoosesTheStoredBytes() async throws {
        let h = Harness()
        let url = h.serve("s.png", width: 40, height: 20)
        let downloaded = h.coder.data(width: 40, height: 20, extra: "s.png")
        var context = ImageContext()
        context[.cacheSerializer] = CacheKeys.BlockSerializer { image, original, _ in
            Data("\(image.width)x\(image.height) from \(original?.count ?? -1) bytes".utf8)
        }
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(h.disk.data(forKey: url.absoluteString) == Data("40x20 from \(downloaded.count) bytes".utf8))
        let plain = h.serve("p.png", width: 40, height: 20)
        _ = try await h.manager.loadImage(with: plain, options: .waitStoreCache)
        #expect(h.disk.data(forKey: plain.absoluteString) == h.coder.data(width: 40, height: 20, extra: "p.png"))
    }

    /// Every progress callback and the completion run on the executor, one after the other, in order.
    @Test func callbackExecutorRunsProgressAndCompletionOnIt() async throws {
        let h = Harness()
        let url = h.serve("c.png", width: 40, height: 20)
        let executor = ImageManager.SerialCallbackExecutor(label: "test.callbacks")
        var context = ImageContext()
        context[.callbackExecutor] = executor
        let log = Mutex<[String]>([])
        let done = Mutex(false)
        h.manager.loadImage(
            with: url, context: context,
            progress: { event in
                if case .bytes(let received, let expected) = event {
                    log.withLock { $0.append("\(received)/\(expected) \(executor.isCurrent)") }
                }
            }
        ) { result in
            log.withLock { $0.append("done \((try? result.get())?.image.width ?? 0) \(executor.isCurrent)") }
            done.withLock { $0 = true }
        }
        #expect(await eventually { done.withLock { $0 } })
        let total = h.coder.data(width: 40, height: 20, extra: "c.png").count
        #expect(log.withLock { $0 } == ["0/-1 true", "16/\(total) true", "\(total)/\(total) true", "done 40 true"])
        #expect(!executor.isCurrent)

        // Without one, the completion runs on the thread that finished the work, not on the executor.
        let onExecutor = Mutex<Bool?>(nil)
        h.manager.loadImage(with: url) { _ in onExecutor.withLock { $0 = executor.isCurrent } }
        #expect(await eventually { onExecutor.withLock { $0 } != nil })
        #expect(onExecutor.withLock { $0 } == false)
    }

    /// 8000x4000 RGBA is 128 MB: `.scaleDownLargeImages` decodes it within 60 MB, with its aspect.
    @Test func scaleDownLargeImagesDecodesWithinSixtyMegabytes() async throws {
        let h = Harness()
        let url = h.serve("huge.png", width: 8000, height: 4000)
        let result = try await h.manager.loadImage(with: url, options: .scaleDownLargeImages)
        #expect(result.image.size == PixelSize(width: 5608, height: 2804))
        #expect(result.image.width * result.image.height * 4 <= 60 * 1024 * 1024)
        var limit = ImageContext()
        limit[.scaleDownLimitBytes] = 4 * 1024 * 1024
        let smaller = try await h.manager.loadImage(
            with: url, options: [.scaleDownLargeImages, .fromLoaderOnly], context: limit)
        #expect(smaller.image.size == PixelSize(width: 1448, height: 724))
    }
}
