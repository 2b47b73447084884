import Foundation
import Synchronization
import Testing
import WICore
import WITestSupport

/// Request identity decides sharing at every layer; cache partitions keep tenants' entries apart.
@Suite struct IdentityTests {
    struct AuthModifier: ImageLoading.RequestModifier {
        let token: String
        func modified(_ request: ImageLoading.HTTPRequest) -> ImageLoading.HTTPRequest? {
            var request = request
            request.headers["Authorization"] = "Bearer " + token
            return request
        }
    }

    @Test func identityFollowsTheRequestAsSent() {
        let url = URL(string: "https://a.com/x.png")!
        func identity(_ context: ImageContext = .init(), options: ImageOptions = [], headers: [String: String] = [:])
            -> ImageLoading.Identity
        {
            ImageLoading.Identity(ImageLoading.Request(url: url, options: options, context: context, headers: headers))
        }
        #expect(identity() == identity())
        var a = ImageContext()
        var b = ImageContext()
        var sameAsA = ImageContext()
        a[.requestModifier] = AuthModifier(token: "A")
        b[.requestModifier] = AuthModifier(token: "B")
        // a closure: compared by what it sends
        sameAsA[.requestModifier] = ImageLoading.BlockRequestModifier { request in
            var request = request
            request.headers["Authorization"] = "Bearer A"
            return request
        }
        #expect(identity(a) != identity(b))
        #expect(identity(a) != identity())
        #expect(identity(a) == identity(sameAsA))
        #expect(identity(a).request?.headers == ["Authorization": "Bearer A"])
        #expect(identity(headers: ["Cookie": "s=1"]) != identity())
        #expect(identity(options: .allowInvalidSSLCertificates) != identity())
        #expect(identity(options: .handleCookies) != identity())
        #expect(identity(options: .highPriority) == identity())
        var closureModifier = ImageContext()
        closureModifier[.responseModifier] = ImageLoading.BlockResponseModifier { $0 }
        #expect(identity(closureModifier).isPrivate)
        #expect(identity(closureModifier) != identity(closureModifier))
        var decrypting = ImageContext()
        decrypting[.decryptor] = ImageLoading.BlockDataDecryptor { data, _ in data }
        #expect(identity(decrypting).isPrivate)
        var partitioned = ImageContext()
        partitioned[.cachePartition] = "tenant-1"
        #expect(identity(partitioned) != identity())
    }

    @Test func pluginKeysDeclareTheirRole() {
        let url = URL(string: "https://a.com/x.png")!
        func identity(_ context: ImageContext) -> ImageLoading.Identity {
            ImageLoading.Identity(ImageLoading.Request(url: url, context: context))
        }
        var one = ImageContext()
        var two = ImageContext()
        var note = ImageContext()
        one[.tenantRegion] = "eu"
        two[.tenantRegion] = "us"
        note[.debugNote] = "anything"
        #expect(identity(one) != identity(two))  // `.request` (the default): compared
        #expect(identity(one) == identity(one))
        #expect(identity(note) == identity(ImageContext()))  // `.irrelevant`: ignored
    }

    @Test func loadsWithDifferentRequestModifiersNeverShare() async throws {
        let h = Harness()
        let url = h.serve("shared.png", width: 5, height: 5)
        h.loader.close()
        let a = Self.context(AuthModifier(token: "A"))
        let b = Self.context(AuthModifier(token: "B"))
        async let first = h.manager.loadImage(with: url, context: a)
        async let second = h.manager.loadImage(with: url, context: b)
        async let third = h.manager.loadImage(with: url)
        async let fourth = h.manager.loadImage(with: url, context: a)
        #expect(await eventually { h.loader.waitingCount == 3 && h.manager.imageTaskWaiterCount == 4 })
        h.loader.open()
        _ = try await (first, second, third, fourth)
        #expect(h.loader.loadCount == 3)  // A, B and none; the second A joined the first
        #expect(h.manager.statistics.loads == 3)
    }

    static func context(_ modifier: AuthModifier) -> ImageContext {
        var context = ImageContext()
        context[.requestModifier] = modifier
        return context
    }

    @Test func partitionsNeverSeeEachOthersEntries() async throws {
        let h = Harness()
        let url = h.serve("tenant.png", width: 7, height: 7)
        var a = ImageContext()
        var b = ImageContext()
        a[.cachePartition] = "a"
        b[.cachePartition] = "b"
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache, context: a)
        let hit = try await h.manager.loadImage(with: url, options: .fromCacheOnly, context: a)
        #expect(hit.cacheType == .memory)
        for other in [b, ImageContext()] {
            let miss = await #expect(throws: ImageError.self) {
                try await h.manager.loadImage(with: url, options: .fromCacheOnly, context: other)
            }
            #expect(miss?.code == .loadSkipped)
        }
        #expect(h.disk.keys == ["[1:a]mock://host/tenant.png"])
        #expect(h.memory.keys == ["[1:a]mock://host/tenant.png"])
        #expect(h.manager.cacheKey(for: url, context: b) == "[1:b]mock://host/tenant.png")
        // The length prefix keeps pairs apart whatever they hold.
        #expect(CacheKeys.partitioned("b]c", partition: "a") != CacheKeys.partitioned("c", partition: "a]b"))
        // A partitioned thumbnail key: the thumbnail part still goes before the extension.
        var thumbnail = a
        thumbnail[.thumbnailPixelSize] = PixelSize(width: 4, height: 4)
        #expect(
            h.manager.cacheKey(for: url, context: thumbnail)
                == "[1:a]mock://host/tenant-Thumbnail({4.000000,4.000000},1).png")
    }
}

extension ImageContext.Key where Value == String {
    /// A plugin key that changes what a loader fetches.
    static var tenantRegion: Self { Self("test.tenantRegion") }
    /// A plugin key that changes nothing loaded.
    static var debugNote: Self { Self("test.debugNote", role: .irrelevant) }
}
