import Foundation
import Synchronization
import Testing
import WICore
import WILoaderCurl
import WITestServer

/// What a loader leaves for later: libcurl and its thread until the first http(s) load, the Accept header made
/// from `Configuration.acceptedFormats` and the default User-Agent until the first transfer or request modifier (a
/// process whose images all come from its caches never pays for them).
@Suite struct CurlLoaderAcceptTests {
    /// Counts the calls of an `acceptedFormats` closure.
    final class Asked: Sendable {
        private let calls = Mutex(0)
        var count: Int { calls.withLock { $0 } }
        func formats() -> [ImageFormat] {
            calls.withLock { $0 += 1 }
            return [.avif, .webp, .png]
        }
    }

    @Test func libcurlStartsWithTheFirstHTTPLoad() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/s") { _ in TestResponse(body: Data([5]), contentType: "image/png") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wi-lazy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.png")
        try Data([7, 7]).write(to: file)
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.allowedSchemes.insert("file") })
        loader.maxConcurrentTransfers = 3
        _ = loader.identity(of: ImageLoading.Request(url: server.url("/s")))
        #expect(await loader.result(file).value?.data == Data([7, 7]))
        await loader.settle()
        #expect(!loader.hasStarted)
        #expect(loader.statistics.transfersStarted == 0 && loader.statistics.connectionsOpened == 0)
        #expect(loader.maxConcurrentTransfers == 3)
        #expect(await loader.result(server.url("/s")).value?.data == Data([5]))
        #expect(loader.hasStarted)
        #expect(loader.maxConcurrentTransfers == 3)  // set before the start, kept by it
        #expect(loader.statistics.transfersStarted == 1)
        #expect(
            server.requests("/s").first?.headers["user-agent"]
                == "WebImage/\(CurlImageLoader.libraryVersion) libcurl/7.88.1")
        await loader.shutdown()
        #expect(await loader.result(server.url("/s")).error?.code == .shutDown)
        #expect(await loader.result(file).error?.code == .shutDown)
    }

    @Test func aLoaderShutDownBeforeItStartedRefusesLoads() async throws {
        let server = try await TestHTTPServer.start()
        let loader = try CurlImageLoader(configuration: testConfiguration())
        await loader.shutdown()
        await loader.shutdown()  // idempotent
        #expect(await loader.result(server.url("/x")).error?.code == .shutDown)
        #expect(!loader.hasStarted)
        #expect(server.requestCount("/x") == 0)
    }

    @Test func formatsAreAskedOnceByTheFirstTransfer() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a") { _ in TestResponse(body: Data([1]), contentType: "image/png") }
        let asked = Asked()
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.acceptedFormats = { asked.formats() } })
        // Making the loader and a request's identity need no Accept header.
        _ = loader.identity(of: ImageLoading.Request(url: server.url("/a")))
        #expect(asked.count == 0)
        #expect(await loader.result(server.url("/a")).value?.data == Data([1]))
        #expect(asked.count == 1)
        #expect(
            await loader.result(ImageLoading.Request(url: server.url("/a"), headers: ["X-Other": "1"])).value != nil)
        #expect(asked.count == 1)
        let seen = server.requests("/a")
        #expect(seen.count == 2)
        #expect(
            seen.map { $0.headers["accept"] }
                == Array(repeating: "image/avif,image/webp,image/png,image/*,*/*;q=0.8", count: 2))
    }

    @Test func aRequestModifierSeesTheAcceptHeaderThatIsSent() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/m") { _ in TestResponse(body: Data([2]), contentType: "image/png") }
        let asked = Asked()
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.acceptedFormats = { asked.formats() } })
        let seenByModifier = Mutex<[String?]>([])
        var context = ImageContext()
        context[.requestModifier] = ImageLoading.BlockRequestModifier { request in
            seenByModifier.withLock { $0.append(request.headers["Accept"]) }
            return request
        }
        let request = ImageLoading.Request(url: server.url("/m"), context: context)
        _ = loader.identity(of: request)
        #expect(asked.count == 1)  // the identity ran the modifier, which sees every header the request sends
        #expect(await loader.result(request).value?.data == Data([2]))
        #expect(asked.count == 1)
        let expected = "image/avif,image/webp,image/png,image/*,*/*;q=0.8"
        // Three runs: the identity above, the load's identity and the transfer; each saw the header that was sent.
        #expect(seenByModifier.withLock { $0 } == [expected, expected, expected])
        #expect(server.requests("/m").first?.headers["accept"] == expected)
    }

    @Test func anAcceptInTheConfigurationsHeadersWins() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/h") { _ in TestResponse(body: Data([3]), contentType: "image/png") }
        let asked = Asked()
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.acceptedFormats = { asked.formats() }
                $0.headers = ["Accept": "image/png"]
            })
        #expect(await loader.result(server.url("/h")).value?.data == Data([3]))
        #expect(asked.count == 0)
        #expect(server.requests("/h").first?.headers["accept"] == "image/png")
    }
}
