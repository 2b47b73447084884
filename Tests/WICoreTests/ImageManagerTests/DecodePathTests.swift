import Foundation
import Synchronization
import Testing
import WICore
import WITestSupport

/// One decode path: caches return bytes, the manager decodes them in its shared, counted decode stage; entries are
/// removed only when the manager's own coders call their bytes bad (1001).
@Suite struct DecodePathTests {
    @Test func aDiskHitIsDecodedOnceInTheSharedStageAndPromotedToMemory() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/disk.png")!
        h.disk.setData(h.coder.data(width: 6, height: 3), forKey: url.absoluteString)
        h.loader.close()
        async let a = h.manager.loadImage(with: url, options: .waitStoreCache)
        async let b = h.manager.loadImage(with: url, options: .waitStoreCache)
        let (first, second) = try await (a, b)
        #expect(first.cacheType == .disk)
        #expect(second.image === first.image)
        #expect(first.data == h.coder.data(width: 6, height: 3))
        #expect(h.coder.decodeCount == 1)
        #expect(h.manager.statistics.decodes == 1)  // counted like a network decode
        #expect(h.memory.keys == [url.absoluteString])
        #expect(h.loader.loadCount == 0)
        let again = try await h.manager.loadImage(with: url)
        #expect(again.cacheType == .memory)
        #expect(h.coder.decodeCount == 1)
    }

    @Test func anEntryTheCodersCallBadIsRemovedAndTheURLLoaded() async throws {
        let h = Harness()
        let url = h.serve("fresh.png", width: 9, height: 9)
        h.disk.setData(h.coder.data(width: 0, height: 0), forKey: url.absoluteString)  // the coder's magic, broken
        let result = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(result.cacheType == .none)
        #expect(result.image.size == PixelSize(width: 9, height: 9))
        #expect(h.loader.loadCount == 1)
        #expect(h.disk.data(forKey: url.absoluteString) == h.coder.data(width: 9, height: 9, extra: "fresh.png"))
    }

    @Test func aPixelLimitOnACachedEntryFailsTheLoadAndKeepsTheEntry() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/huge.png")!
        let bytes = h.coder.data(width: 100, height: 100)
        h.disk.setData(bytes, forKey: url.absoluteString)
        var context = ImageContext()
        context[.decodeOptions] = DecodeOptions(pixelLimit: 50)
        let error = await #expect(throws: ImageError.self) {
            try await h.manager.loadImage(with: url, context: context)
        }
        #expect(error?.code == .pixelLimitExceeded)
        #expect(h.disk.data(forKey: url.absoluteString) == bytes)  // a good entry is never deleted
        #expect(h.loader.loadCount == 0)
        let full = try await h.manager.loadImage(with: url)
        #expect(full.image.size == PixelSize(width: 100, height: 100))
    }

    @Test func aPerRequestCoderThatDeclinesTheBytesLeavesTheEntry() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/other.png")!
        let bytes = h.coder.data(width: 4, height: 4)
        h.disk.setData(bytes, forKey: url.absoluteString)
        var context = ImageContext()
        context[.imageCoder] = MockCoder(magic: "QOIF", marker: 3)
        let error = await #expect(throws: ImageError.self) {
            try await h.manager.loadImage(with: url, options: .fromCacheOnly, context: context)
        }
        #expect(error?.code == .loadSkipped)  // a miss for this coder, not bad data
        #expect(h.disk.data(forKey: url.absoluteString) == bytes)
        // A per-request coder calling the bytes bad is not the manager's verdict either.
        context[.imageCoder] = MockCoder(magic: "MOCK", marker: 3, failure: ImageError(.badImageData, "refused"))
        let refused = await #expect(throws: ImageError.self) {
            try await h.manager.loadImage(with: url, options: .fromCacheOnly, context: context)
        }
        #expect(refused?.code == .badImageData)
        #expect(h.disk.data(forKey: url.absoluteString) == bytes)
    }

    @Test func bytesNoCoderKnowsGive1004AndStayLoadableOnceACoderIsRegistered() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/new-format.qoi")!
        let later = MockCoder(magic: "QOIF", marker: 4)
        h.loader.register(url, data: later.data(width: 3, height: 2))
        let error = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: url) }
        #expect(error?.code == .unsupportedFormat)
        #expect(!h.manager.isFailedURL(url))
        (h.manager.coders as? ImageCodersManager)?.addCoder(later)
        let result = try await h.manager.loadImage(with: url)
        #expect(result.image.size == PixelSize(width: 3, height: 2))
        #expect(result.image.pixels.color(x: 0, y: 0).red == 4)
    }

    @Test func thumbnailsAndTransformsCarryNoData() async throws {
        let h = Harness(transformer: MockTransformer(key: "T"))
        let url = h.serve("t.png", width: 40, height: 20)
        let transformed = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(transformed.data == nil)
        let plainManager = Harness()
        let plainURL = plainManager.serve("p.png", width: 40, height: 20)
        let plain = try await plainManager.manager.loadImage(with: plainURL)
        #expect(plain.data == plainManager.coder.data(width: 40, height: 20, extra: "p.png"))
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 10, height: 10)
        let thumbnail = try await plainManager.manager.loadImage(
            with: plainURL, options: .fromLoaderOnly, context: context)
        #expect(thumbnail.image.size == PixelSize(width: 10, height: 5))
        #expect(thumbnail.data == nil)
    }

    @Test func aWarmThumbnailIsReadFromItsOwnEntryNotDecodedFromTheOriginal() async throws {
        let h = Harness()
        let url = h.serve("w.png", width: 400, height: 200)
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 100, height: 100)
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        let thumbnailKey = try #require(h.manager.cacheKey(for: url, context: context))
        #expect(thumbnailKey == "mock://host/w-Thumbnail({100.000000,100.000000},1).png")
        #expect(h.disk.keys.sorted() == [thumbnailKey, url.absoluteString].sorted())
        h.memory.removeAll()
        let decodesBefore = h.coder.decodeCount
        let warm = try await h.manager.loadImage(with: url, context: context)
        #expect(warm.cacheType == .disk)
        #expect(warm.image.size == PixelSize(width: 100, height: 50))
        #expect(warm.image.flags.contains(.thumbnail))
        #expect(h.coder.decodeCount == decodesBefore + 1)
        #expect(h.memory.keys == [thumbnailKey])  // never under the full-size key
    }

    @Test func firstFrameOnlyOnAMemoryHitOfAnAnimationGivesAStill() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/anim.gif")!
        let frame = try PixelBuffer(width: 2, height: 2, format: .rgba8)
        let animation = Image(frames: [
            ImageFrame(pixels: frame, duration: 0.1), ImageFrame(pixels: frame, duration: 0.1),
        ])
        h.memory.setImage(animation, forKey: url.absoluteString)
        let full = try await h.manager.loadImage(with: url)
        #expect(full.image.frameCount == 2)
        let still = try await h.manager.loadImage(with: url, options: .decodeFirstFrameOnly)
        #expect(still.cacheType == .memory)
        #expect(still.image.frameCount == 1)
        #expect(!still.image.isAnimated)
    }

    @Test func aThumbnailOfTheFirstFrameHasAKeyOfItsOwn() throws {
        let h = Harness()
        let url = URL(string: "mock://host/anim.gif?v=2")!
        var context = ImageContext()
        #expect(h.manager.cacheKey(for: url, options: .decodeFirstFrameOnly) == url.absoluteString)
        context[.thumbnailPixelSize] = PixelSize(width: 64, height: 32)
        #expect(
            h.manager.cacheKey(for: url, context: context)
                == "mock://host/anim-Thumbnail({64.000000,32.000000},1).gif?v=2")
        #expect(
            h.manager.cacheKey(for: url, options: .decodeFirstFrameOnly, context: context)
                == "mock://host/anim-Thumbnail({64.000000,32.000000},1)-FirstFrame.gif?v=2")
    }

    @Test func preloadAllFramesReachesTheDecodeOptions() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/preload.gif")!
        h.disk.setData(h.coder.data(width: 2, height: 2), forKey: url.absoluteString)
        h.loader.close()
        let onDemand = try await h.manager.loadImage(with: url, options: .fromCacheOnly)
        #expect(onDemand.image.decodeOptions?.preloadAllFrames == false)
        h.memory.removeAll()
        let preloaded = try await h.manager.loadImage(with: url, options: [.fromCacheOnly, .preloadAllFrames])
        #expect(preloaded.image.decodeOptions?.preloadAllFrames == true)
        #expect(h.coder.decodeCount == 2)
    }

    @Test func preloadAllFramesOnAMemoryHitOfAnAnimationOnDemandDecodesEveryFrame() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/on-demand.gif")!
        let animation = Image(
            frameBuffer: try ImageCoding.AnimatedFrameBuffer(decoder: ShadesAnimation(), capacity: 1), loopCount: 0)
        h.memory.setImage(animation, forKey: url.absoluteString)
        let played = try await h.manager.loadImage(with: url)
        #expect(played.image === animation)
        let preloaded = try await h.manager.loadImage(with: url, options: .preloadAllFrames)
        #expect(preloaded.cacheType == .memory && preloaded.image.frameBuffer == nil)
        #expect(try preloaded.image.frames.map { $0.pixels.color(x: 0, y: 0).red } == [0, 40, 80, 120])
        #expect(preloaded.image.durations == [0.1, 0.1, 0.1, 0.1])
    }

    @Test func theOriginalImageCacheStoresOriginalsToo() async throws {
        let h = Harness()
        let originals = MockDataCache()
        let originalCache = TieredImageCache(memory: nil, dataTiers: [originals], coders: h.coder)
        let url = h.serve("o.png", width: 40, height: 40)
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 8, height: 8)
        context[.originalImageCache] = originalCache
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(originals.keys == [url.absoluteString])
        #expect(!h.disk.keys.contains(url.absoluteString))
        #expect(h.disk.keys == ["mock://host/o-Thumbnail({8.000000,8.000000},1).png"])
        await originalCache.shutdown()
    }
}

/// Four 1x1 frames of red 0, 40, 80, 120, decoded on demand.
private struct ShadesAnimation: AnimatedImageDecoder {
    var canvasSize: PixelSize { .init(width: 1, height: 1) }
    var frameCount: Int { 4 }
    var loopCount: Int { 0 }
    func duration(at index: Int) -> Double { 0.1 }
    func frame(at index: Int) throws(ImageError) -> PixelBuffer {
        try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [UInt8(index * 40), 0, 0, 255])
    }
}
