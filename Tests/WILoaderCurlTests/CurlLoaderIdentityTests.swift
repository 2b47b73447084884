import Foundation
import Synchronization
import Testing
import WICore
import WILoaderCurl
import WITestServer
import WITestSupport

/// Request identity against a real server: callers whose requests differ (credentials, headers, modifiers) never
/// share a transfer or a result; identical callers share one request.
@Suite struct CurlLoaderIdentityTests {
    /// Authorization header -> the image size the server answers with (a private response per caller).
    static let sizes = ["Bearer A": 10, "Bearer B": 20]
    static let coder = MockCoder(magic: "MOCK", marker: 1)

    struct Authorize: ImageLoading.RequestModifier {
        let token: String
        func modified(_ request: ImageLoading.HTTPRequest) -> ImageLoading.HTTPRequest? {
            var request = request
            request.headers["Authorization"] = "Bearer " + token
            return request
        }
    }

    /// A server whose `/img` answers per Authorization header, held at `gate`.
    func privateServer(gate: TestGate) async throws -> TestHTTPServer {
        let server = try await TestHTTPServer.start()
        server.route("/img") { request in
            let side = Self.sizes[request.headers["authorization"] ?? ""] ?? 30
            var response = TestResponse(body: Self.coder.data(width: side, height: side), contentType: "image/png")
            response.hold = (afterBytes: 1, gate: gate)
            return response
        }
        return server
    }

    /// A context whose request modifier sends `Bearer <token>`, in `partition` when given.
    static func context(token: String, partition: String? = nil) -> ImageContext {
        var context = ImageContext()
        context[.requestModifier] = Authorize(token: token)
        context[.cachePartition] = partition
        return context
    }

    func manager() throws -> ImageManager {
        let coders = ImageCodersManager(coders: [Self.coder])
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let cache = TieredImageCache(memory: MockMemoryCache(), dataTiers: [MockDataCache()], coders: coders)
        var configuration = ImageManager.Configuration(cache: cache, loader: loader, coders: coders)
        configuration.owning = [loader, cache]
        return ImageManager(configuration: configuration)
    }

    @Test func concurrentLoadsWithDifferentCredentialsGetTheirOwnImages() async throws {
        let gate = TestGate()
        let server = try await privateServer(gate: gate)
        let manager = try manager()
        let url = server.url("/img")
        // Each caller keeps to its own partition, as the README asks of requests with credentials.
        let a = Self.context(token: "A", partition: "a")
        let b = Self.context(token: "B", partition: "b")
        async let withA = manager.loadImage(with: url, context: a)
        async let withB = manager.loadImage(with: url, context: b)
        async let anonymous = manager.loadImage(with: url)
        #expect(await eventually { server.requestCount("/img") == 3 })  // all three in flight at once
        gate.open()
        let sides = try await [withA, withB, anonymous].map(\.image.width)
        #expect(sides == [10, 20, 30])
        #expect(server.requestCount("/img") == 3)
        #expect(
            Set(server.requests("/img").map { $0.headers["authorization"] ?? "none" }) == [
                "Bearer A", "Bearer B", "none",
            ])
        await manager.shutdown()
        await server.stop()
    }

    @Test func concurrentLoadsWithoutPartitionsStillNeverShareAPrivateResponse() async throws {
        let gate = TestGate()
        let server = try await privateServer(gate: gate)
        let manager = try manager()
        let url = server.url("/img")
        let a = Self.context(token: "A")
        async let anonymous = manager.loadImage(with: url)
        async let withA = manager.loadImage(with: url, context: a)
        #expect(await eventually { server.requestCount("/img") == 2 })
        gate.open()
        #expect(try await [anonymous, withA].map(\.image.width) == [30, 10])
        await manager.shutdown()
        await server.stop()
    }

    @Test func identicalConcurrentLoadsMakeOneRequest() async throws {
        let gate = TestGate()
        let server = try await privateServer(gate: gate)
        let manager = try manager()
        let url = server.url("/img")
        let a = Self.context(token: "A", partition: "a")
        // `.waitStoreCache`: a caller arriving after the shared load finished finds the image in memory.
        async let first = manager.loadImage(with: url, options: .waitStoreCache, context: a)
        async let second = manager.loadImage(with: url, options: .waitStoreCache, context: a)
        async let third = manager.loadImage(with: url, options: .waitStoreCache, context: a)
        #expect(await eventually { server.requestCount("/img") == 1 })
        gate.open()
        #expect(try await [first, second, third].map(\.image.width) == [10, 10, 10])
        #expect(server.requestCount("/img") == 1)
        #expect(manager.statistics.loads == 1)
        await manager.shutdown()
        await server.stop()
    }

    @Test func theLoaderSharesTransfersOnlyBetweenEqualIdentities() async throws {
        let gate = TestGate()
        let server = try await privateServer(gate: gate)
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let url = server.url("/img")
        let (_, plain1) = loader.start(ImageLoading.Request(url: url))
        let (_, plain2) = loader.start(ImageLoading.Request(url: url))
        let (_, withA) = loader.start(ImageLoading.Request(url: url, headers: ["Authorization": "Bearer A"]))
        var modified = ImageContext()
        modified[.responseModifier] = ImageLoading.BlockResponseModifier { $0 }  // a closure: never shared
        let (_, privateOne) = loader.start(ImageLoading.Request(url: url, context: modified))
        #expect(await eventually { server.requestCount("/img") == 3 })
        gate.open()
        #expect(await plain1.waitForCompletion()?.value?.data == Self.coder.data(width: 30, height: 30))
        #expect(await plain2.waitForCompletion()?.value?.data == Self.coder.data(width: 30, height: 30))
        #expect(await withA.waitForCompletion()?.value?.data == Self.coder.data(width: 10, height: 10))
        #expect(await privateOne.waitForCompletion()?.value?.data == Self.coder.data(width: 30, height: 30))
        #expect(server.requestCount("/img") == 3)
        #expect(loader.statistics.transfersStarted == 3)
        await loader.shutdown()
        await server.stop()
    }

    @Test func aShutDownLoaderRefusesLoadsAtOnce() async throws {
        let loader = try CurlImageLoader(configuration: testConfiguration())
        await loader.shutdown()
        let (_, recorder) = loader.start(URL(string: "http://127.0.0.1:9/x.png")!)
        #expect(recorder.completions == 1)  // before `start` returned
        #expect(recorder.errorCode == .shutDown)
        await loader.shutdown()  // idempotent
    }
}
