import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct FailedURLTests {
    @Test func invalidURLs() async {
        let h = Harness()
        let empty = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: nil) }
        #expect(empty?.code == .invalidURL)
        let noLoader = await #expect(throws: ImageError.self) {
            try await h.manager.loadImage(with: URL(string: "gopher://old/a.png")!)
        }
        #expect(noLoader?.code == .invalidURL)
    }

    @Test func badDataBlocksTheURLUntilRetryFailedSucceeds() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/broken.png")!
        h.loader.register(url, data: h.coder.data(width: 0, height: 0))  // the coder's magic, a broken header
        let first = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: url) }
        #expect(first?.code == .badImageData)
        #expect(h.manager.isFailedURL(url))
        let blocked = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: url) }
        #expect(blocked?.code == .blockedURL)
        #expect(h.loader.loadCount == 1)
        h.loader.register(url, data: h.coder.data(width: 2, height: 2))
        _ = try await h.manager.loadImage(with: url, options: .retryFailed)
        #expect(!h.manager.isFailedURL(url))
        #expect(h.loader.loadCount == 2)
    }

    @Test func notFoundAndTransientErrorsDoNotBlock() async throws {
        let h = Harness()
        let missing = URL(string: "mock://host/missing.png")!  // unregistered: 404
        let error = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: missing) }
        #expect(error?.code == .badServerResponse)
        #expect(error?.statusCode == 404)
        #expect(!h.manager.isFailedURL(missing))
        let flaky = URL(string: "mock://host/flaky.png")!
        h.loader.register(flaky, error: ImageError(.invalidDownloadResponse, "connection reset"))
        _ = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: flaky) }
        #expect(!h.manager.isFailedURL(flaky))
    }

    @Test func removeFailedURLsAndDelegateOverride() async throws {
        struct BlockEverything: ImageManagerDelegate {
            func shouldBlockFailedURL(_ url: URL, error: ImageError) -> Bool? { true }
        }
        let h = Harness(delegate: BlockEverything())
        let missing = URL(string: "mock://host/missing.png")!
        _ = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: missing) }
        #expect(h.manager.isFailedURL(missing))
        h.manager.removeFailedURL(missing)
        #expect(!h.manager.isFailedURL(missing))
        _ = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: missing) }
        h.manager.removeAllFailedURLs()
        #expect(!h.manager.isFailedURL(missing))
    }
}
