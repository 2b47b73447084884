import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

/// How the loader holds bodies: assembled once, handed out without a copy, never kept after the completion.
@Suite struct CurlLoaderBodyStorageTests {
    /// A delivered body belongs to the caller alone: the loader keeps no reference to it once the completion ran
    /// (a finished transfer may stay in a queue until the queue compacts; its body must not).
    @Test func aDeliveredBodyIsTheCallersAlone() async throws {
        let server = try await TestHTTPServer.start()
        let first = testBytes(20_000)
        let second = testBytes(3000, seed: 9)
        server.route("/first") { _ in TestResponse(body: first, contentType: "image/png") }
        server.route("/second") { _ in TestResponse(body: second, contentType: "image/png", framing: .chunked(700)) }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        var data = try await loader.load(ImageLoading.Request(url: server.url("/first"))).data
        var other = try await loader.load(ImageLoading.Request(url: server.url("/second"))).data
        // The second completion ran after the loader's thread left everything of the first transfer; a third
        // load does the same for the second.
        _ = await loader.result(server.url("/first"))
        #expect(data == first)
        #expect(other == second)
        #expect(isOnlyReference(&data))
        #expect(isOnlyReference(&other))
    }
}

/// Whether `data`'s storage has no other owner: writing through it then happens in place, where a shared storage
/// would be copied first (copy on write), moving the bytes to a new address.
func isOnlyReference(_ data: inout Data) -> Bool {
    let before = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    let after = data.withUnsafeMutableBytes { UInt(bitPattern: $0.baseAddress) }
    return before == after
}
