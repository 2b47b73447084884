import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct CacheKeyTests {
    @Test func transformerPartGoesBeforeThePathExtension() {
        #expect(CacheKeys.transformed("http://a.com/b/c.png", transformerKey: "T") == "http://a.com/b/c-T.png")
        #expect(
            CacheKeys.transformed("http://a.com/b/c.png?x=1.jpg#f", transformerKey: "T")
                == "http://a.com/b/c-T.png?x=1.jpg#f")
        #expect(CacheKeys.transformed("http://a.com/b/c?x=1", transformerKey: "T") == "http://a.com/b/c?x=1-T")
        #expect(CacheKeys.transformed("file:///tmp/a.gif", transformerKey: "T") == "file:///tmp/a-T.gif")
        #expect(CacheKeys.transformed("plain-key", transformerKey: "T") == "plain-key-T")
        #expect(CacheKeys.transformed("photo.jpeg", transformerKey: "T") == "photo-T.jpeg")
        #expect(CacheKeys.transformed("http://a.com", transformerKey: "T") == "http://a.com-T")
        #expect(CacheKeys.transformed("http://a.com/.hidden", transformerKey: "T") == "http://a.com/.hidden-T")
        // Keys already holding a part (braces, commas) must not confuse URL parsing.
        let thumb = CacheKeys.thumbnailed(
            "https://a.com/p/c.jpg?q=1", size: .init(width: 8, height: 8), preserveAspectRatio: true)
        #expect(
            CacheKeys.transformed(thumb, transformerKey: "T")
                == "https://a.com/p/c-Thumbnail({8.000000,8.000000},1)-T.jpg?q=1")
    }

    @Test func thumbnailPartFollowsSDWebImage() {
        #expect(
            CacheKeys.thumbnailPart(.init(width: 256, height: 128), preserveAspectRatio: true)
                == "Thumbnail({256.000000,128.000000},1)")
        #expect(
            CacheKeys.thumbnailed("http://a.com/c.png", size: .init(width: 10, height: 10), preserveAspectRatio: false)
                == "http://a.com/c-Thumbnail({10.000000,10.000000},0).png")
    }

    @Test func managerKeysCombineFilterThumbnailAndTransformer() {
        let filter = CacheKeys.BlockKeyFilter { url in
            url.absoluteString.replacingOccurrences(of: "?token=secret", with: "")
        }
        let h = Harness(transformer: MockTransformer(key: "Tint"), cacheKeyFilter: filter)
        let url = URL(string: "https://a.com/p/cat.jpg?token=secret")!
        #expect(h.manager.cacheKey(for: url) == "https://a.com/p/cat-Tint.jpg")
        var context = ImageContext()
        context[.thumbnailPixelSize] = PixelSize(width: 64, height: 64)
        context[.imageTransformer] = PipelineTransformer([MockTransformer(key: "A"), MockTransformer(key: "B")])
        #expect(
            h.manager.cacheKey(for: url, context: context)
                == "https://a.com/p/cat-Thumbnail({64.000000,64.000000},1)-A-B.jpg")
        let noCache = Harness(cacheKeyFilter: CacheKeys.BlockKeyFilter { _ in nil })
        #expect(noCache.manager.cacheKey(for: url) == nil)
    }

    @Test func theColourTargetJoinsTheKeyAndPreserveAddsNothing() {
        let h = Harness()
        let url = URL(string: "https://a.com/p/cat.jpg?v=2")!
        var decode = DecodeOptions()
        var context = ImageContext()
        context[.decodeOptions] = decode
        // .preserve: the keys made before colour conversion existed, byte for byte.
        #expect(h.manager.cacheKey(for: url, context: context) == "https://a.com/p/cat.jpg?v=2")
        decode.targetColorSpace = .sRGB
        context[.decodeOptions] = decode
        #expect(h.manager.cacheKey(for: url, context: context) == "https://a.com/p/cat-sRGB.jpg?v=2")
        context[.thumbnailPixelSize] = PixelSize(width: 64, height: 64)
        context[.imageTransformer] = MockTransformer(key: "T")
        #expect(
            h.manager.cacheKey(for: url, context: context)
                == "https://a.com/p/cat-Thumbnail({64.000000,64.000000},1)-sRGB-T.jpg?v=2")
        #expect(CacheKeys.colorSpacePart(.preserve) == nil && CacheKeys.colorSpacePart(.sRGB) == "sRGB")
    }

    @Test func theVectorViewportJoinsTheKeyAndTheDecodeIdentity() {
        let h = Harness()
        let url = URL(string: "https://a.com/p/logo.svg")!
        var decode = DecodeOptions()
        decode.vectorViewport = PixelSize(width: 200, height: 100)
        var context = ImageContext()
        context[.decodeOptions] = decode
        #expect(
            h.manager.cacheKey(for: url, context: context)
                == "https://a.com/p/logo-Viewport({200.000000,100.000000}).svg")
        context[.thumbnailPixelSize] = PixelSize(width: 64, height: 64)
        context[.imageTransformer] = MockTransformer(key: "T")
        #expect(
            h.manager.cacheKey(for: url, context: context)
                == "https://a.com/p/logo-Thumbnail({64.000000,64.000000},1)-Viewport({200.000000,100.000000})-T.svg")
        // Two decodes share work only when their viewports are equal.
        var other = decode
        other.vectorViewport = PixelSize(width: 100, height: 200)
        #expect(other != decode && DecodeOptions() != decode)
        other.vectorViewport = decode.vectorViewport
        #expect(other == decode && other.hashValue == decode.hashValue)
        other.vectorViewport = PixelSize(width: -1, height: 0)
        #expect(throws: ImageError.self) { try other.validate() }
    }

    @Test func sRGBLoadsAreCachedApartFromTheOriginal() async throws {
        let h = Harness()
        let url = h.serve("a.png")
        var decode = DecodeOptions()
        decode.targetColorSpace = .sRGB
        var context = ImageContext()
        context[.decodeOptions] = decode
        let converted = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: context)
        #expect(converted.image.decodeOptions?.targetColorSpace == .sRGB)
        #expect(converted.data == nil)
        // The original's bytes under the source key; the converted image under its own key (memory, and encoded on
        // disk as thumbnails are), never under the original's.
        #expect(h.disk.keys.sorted() == ["mock://host/a-sRGB.png", "mock://host/a.png"])
        #expect(h.memory.keys == ["mock://host/a-sRGB.png"])
        let original = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(original.cacheType == .disk)
        #expect(original.image.decodeOptions?.targetColorSpace == .preserve)
        #expect(h.loader.loadCount == 1)
    }

    @Test func aNilKeyMeansNothingIsCached() async throws {
        let h = Harness(cacheKeyFilter: CacheKeys.BlockKeyFilter { _ in nil })
        let url = h.serve("a.png")
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        #expect(h.loader.loadCount == 2)
        #expect(h.memory.keys.isEmpty && h.disk.keys.isEmpty)
    }
}
