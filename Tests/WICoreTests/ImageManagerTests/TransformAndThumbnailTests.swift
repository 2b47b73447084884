import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct TransformAndThumbnailTests {
    @Test func transformedOutputIsFlaggedAndTheOriginalKeptOnDiskOnly() async throws {
        let tint = MockTransformer(key: "Tint")
        let h = Harness(transformer: tint)
        let url = h.serve("cat.png", width: 8, height: 8)
        let result = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(result.image.flags.contains(.transformed))
        #expect(result.image.pixels.color(x: 0, y: 0).red == 200)
        let transformedKey = "mock://host/cat-Tint.png"
        #expect(h.memory.keys == [transformedKey])  // memory: transformed only
        #expect(h.disk.keys == [transformedKey, url.absoluteString])  // disk: transformed + original
        #expect(h.disk.data(forKey: url.absoluteString) == h.coder.data(width: 8, height: 8, extra: "cat.png"))
        #expect(tint.callCount == 1)
    }

    @Test func transformedImageIsMadeFromTheCachedOriginalWithoutLoading() async throws {
        let h = Harness()
        let url = h.serve("cat.png", width: 8, height: 8)
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)  // original cached
        #expect(h.loader.loadCount == 1)
        let blur = MockTransformer(key: "Blur(3)", red: 99)
        var context = ImageContext()
        context[.imageTransformer] = blur
        let result = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(h.loader.loadCount == 1)  // no network
        #expect(result.cacheType == .disk)  // found through the original (disk by default)
        #expect(result.image.pixels.color(x: 0, y: 0).red == 99)
        #expect(result.image.flags.contains(.transformed))
        #expect(h.memory.keys.contains("mock://host/cat-Blur(3).png"))
        let again = try await h.manager.loadImage(with: url, context: context)
        #expect(again.cacheType == .memory)
        #expect(blur.callCount == 1)
    }

    @Test func animatedImagesAreNotTransformedUnlessAsked() async throws {
        struct Animated: ImageCoder {
            func canDecode(_ data: Data) -> Bool { true }
            func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
                let frame = ImageFrame(pixels: try PixelBuffer(width: 2, height: 2, format: .rgba8), duration: 0.1)
                return Image(frames: [frame, frame], loopCount: 0, format: .gif)
            }
        }
        let tint = MockTransformer(key: "Tint")
        let loader = MockLoader()
        let url = URL(string: "mock://host/anim.gif")!
        loader.register(url, data: Data("GIF89a".utf8))
        var configuration = ImageManager.Configuration(
            cache: TieredImageCache(memory: MockMemoryCache(), dataTiers: [], coders: Animated()), loader: loader,
            coders: Animated())
        configuration.transformer = tint
        let manager = ImageManager(configuration: configuration)
        let plain = try await manager.loadImage(with: url, options: .fromLoaderOnly)
        #expect(!plain.image.flags.contains(.transformed))
        #expect(tint.callCount == 0)
        let transformed = try await manager.loadImage(with: url, options: [.fromLoaderOnly, .transformAnimatedImage])
        #expect(transformed.image.flags.contains(.transformed))
        #expect(transformed.image.frameCount == 2)
        #expect(try transformed.image.frames[1].pixels.color(x: 1, y: 1).red == 200)
    }

    @Test func thumbnailFromFullSizeDiskDataWithoutLoadingStoredUnderTheThumbnailKeyOnly() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/big.png")!
        h.disk.setData(h.coder.data(width: 400, height: 200), forKey: url.absoluteString)
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 100, height: 100)
        let result = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(h.loader.loadCount == 0)
        #expect(result.image.size == PixelSize(width: 100, height: 50))
        #expect(result.image.flags.contains(.thumbnail))
        let thumbnailKey = "mock://host/big-Thumbnail({100.000000,100.000000},1).png"
        #expect(h.memory.keys == [thumbnailKey])  // not the full-size key
        #expect(h.disk.keys.sorted() == [thumbnailKey, url.absoluteString].sorted())  // the thumbnail's own bytes too
        #expect(result.data == nil)  // the original's bytes do not describe it
        let again = try await h.manager.loadImage(with: url, context: context)
        #expect(again.cacheType == .memory)
        #expect(again.image.size == PixelSize(width: 100, height: 50))
    }

    @Test func tenThumbnailSizesShareOneLoad() async throws {
        let h = Harness()
        let url = h.serve("huge.png", width: 1000, height: 1000)
        h.loader.close()
        let sizes = try await withThrowingTaskGroup(of: (Int, PixelSize).self) { group in
            for side in 490...499 {
                group.addTask {
                    var context = ImageContext()
                    context[.thumbnailPixelSize] = PixelSize(width: side, height: side)
                    return (side, try await h.manager.loadImage(with: url, context: context).image.size)
                }
            }
            #expect(await eventually { h.loader.waitingCount == 1 && h.manager.downloadWaiterCount == 10 })
            h.loader.open()
            var sizes: [Int: PixelSize] = [:]
            for try await (side, size) in group { sizes[side] = size }
            return sizes
        }
        #expect(h.loader.loadCount == 1)
        for side in 490...499 { #expect(sizes[side] == PixelSize(width: side, height: side)) }
        #expect(h.coder.decodeCount == 10)
    }

    /// `vectorViewport` is an SVG's alone: two loads of a raster source with different viewports (and their own
    /// transformers, as `wi serve`'s requests of two sizes) share one decode, held until both have joined it.
    @Test func aVectorViewportLeavesRasterDecodesShared() async throws {
        let decodeGate = TestLatch()
        let h = Harness(decodeGate: decodeGate)
        let url = h.serve("a.png", width: 4, height: 4)
        h.loader.close()
        try await withThrowingTaskGroup(of: PixelSize?.self) { group in
            for (side, key) in [(100, "B"), (200, "C")] {
                group.addTask {
                    var decode = DecodeOptions()
                    decode.vectorViewport = PixelSize(width: side, height: side)
                    var context = ImageContext()
                    context[.decodeOptions] = decode
                    context[.imageTransformer] = MockTransformer(key: key)
                    return try await h.manager.loadImage(with: url, context: context).image.decodeOptions?
                        .vectorViewport
                }
            }
            #expect(await eventually { h.loader.waitingCount == 1 && h.manager.downloadWaiterCount == 2 })
            h.loader.open()
            #expect(await eventually { h.manager.decodeWaiterCount == 2 })
            decodeGate.open()
            for try await viewport in group { #expect(viewport == nil) }
        }
        #expect(h.loader.loadCount == 1)
        #expect(h.coder.decodeCount == 1)
    }

    @Test func pipelineTransformersShareTheirCommonPrefix() async throws {
        // Coalescing shares work in flight: the decode and the common step are held until both loads have joined
        // them, so the test does not depend on how fast one load overtakes the other.
        let decodeGate = TestLatch()
        let stepGate = TestLatch()
        let h = Harness(decodeGate: decodeGate)
        let url = h.serve("a.png", width: 4, height: 4)
        let a = GatedTransformer(MockTransformer(key: "A", red: 10), gate: stepGate)
        let b = MockTransformer(key: "B", red: 20)
        let c = MockTransformer(key: "C", red: 30)
        h.loader.close()
        try await withThrowingTaskGroup(of: UInt8.self) { group in
            for tail in [b, c] as [any ImageTransformer] {
                group.addTask {
                    var context = ImageContext()
                    context[.imageTransformer] = PipelineTransformer([a, tail])
                    return try await h.manager.loadImage(with: url, context: context).image.pixels.color(x: 0, y: 0).red
                }
            }
            #expect(await eventually { h.loader.waitingCount == 1 && h.manager.downloadWaiterCount == 2 })
            h.loader.open()
            #expect(await eventually { h.manager.decodeWaiterCount == 2 })
            decodeGate.open()
            #expect(await eventually { h.manager.transformWaiterCount == 2 })
            stepGate.open()
            var reds: Set<UInt8> = []
            for try await red in group { reds.insert(red) }
            #expect(reds == [20, 30])
        }
        #expect(a.callCount == 1)
        #expect(b.callCount == 1 && c.callCount == 1)
        #expect(h.loader.loadCount == 1)
        #expect(h.coder.decodeCount == 1)
    }
}
