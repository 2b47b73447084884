import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderHandleReuseTests {
    /// A second transfer runs on the first one's reset easy handle and carries nothing of the first request.
    @Test func reusedHandleCarriesNothingOfThePreviousRequest() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/first") { _ in TestResponse(body: Data([1, 1]), contentType: "image/png") }
        server.route("/second") { _ in TestResponse(body: Data([2, 2, 2]), contentType: "image/png") }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        var context = ImageContext()
        context[.requestModifier] = ImageLoading.BlockRequestModifier { request in
            var changed = request
            changed.method = "POST"
            return changed
        }
        let first = ImageLoading.Request(
            url: server.url("/first"), context: context,
            headers: ["X-First": "yes", "Authorization": "Basic YW5uOnMzY3JldA=="])
        #expect(await loader.result(first).value?.data == Data([1, 1]))
        #expect(await eventually { loader.statistics.spareEasyHandles == 1 })
        #expect(loader.statistics.liveEasyHandles == 0)

        let second = await loader.result(server.url("/second"))
        #expect(second.value?.data == Data([2, 2, 2]))
        #expect(second.value?.metrics?.httpVersion == "1.1")
        let statistics = loader.statistics
        #expect(statistics.transfersStarted == 2)
        #expect(statistics.easyHandlesReused == 1)
        #expect(await loader.waitUntilIdle() == 0)
        #expect(loader.statistics.spareEasyHandles == 1)

        let firstSeen = try #require(server.requests("/first").first)
        #expect(firstSeen.method == "POST")
        #expect(firstSeen.headers["x-first"] == "yes")
        let seen = try #require(server.requests("/second").first)
        #expect(seen.method == "GET")
        #expect(seen.headers["x-first"] == nil)
        #expect(seen.headers["authorization"] == nil)
        #expect(seen.headers["range"] == nil)
        #expect(seen.headers["accept"] == CurlImageLoader.Configuration().accept)
        #expect(server.requestCount("/first") == 1)
        #expect(server.requestCount("/second") == 1)
    }
}
