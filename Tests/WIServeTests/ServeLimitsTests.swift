import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
@testable import WIServe

/// 503 with Retry-After when the working slots and the line are full, and 504 after the timeout; the origin holds
/// its answers behind a gate, so every count is exact.
@Suite(.serialized) struct ServeLimitsTests {
    typealias H = ServeHarness

    @Test func fullServiceAnswers503WithRetryAfter() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration { $0.concurrency = 1; $0.queue = 1 }) { server, client in
            let gate = server.service.gate
            async let first = client.execute(uri: "/unsafe/10x10/\(h.url("/gated.png"))", method: .get)
            var arrivals = h.arrivals.makeAsyncIterator()
            _ = await arrivals.next()  // the first request is at the origin, holding its slot
            #expect(gate.counts == (1, 0))
            async let second = client.execute(uri: "/unsafe/20x20/\(h.url("/gated.png"))", method: .get)
            try await AdmissionGateTests.wait(gate, for: (1, 1))
            let third = try await client.execute(uri: "/unsafe/30x30/\(h.url("/gated.png"))", method: .get)
            #expect(third.status == .serviceUnavailable)
            #expect(third.headers[.retryAfter] == "1")
            #expect(H.text(third) == "too many requests: 1 working and 1 waiting\n")
            h.gate.open()
            let (a, b) = try await (first, second)
            #expect(a.status == .ok && b.status == .ok)
            #expect(try H.image(a).size == PixelSize(width: 10, height: 10))
            #expect(try H.image(b).size == PixelSize(width: 20, height: 20))
            #expect(gate.counts == (0, 0))
            // The origin saw one request per admitted load (no cache here): the refused one never reached it.
            #expect(h.origin.requestCount("/gated.png") == 2)
        }
    }

    @Test func slowSourceTimesOutWith504() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration { $0.timeout = 0.5 }) { server, client in
            let response = try await client.execute(uri: "/unsafe/10x10/\(h.url("/gated.png"))", method: .get)
            #expect(response.status == .gatewayTimeout)
            #expect(H.text(response) == "the request took longer than 0.5 s\n")
            #expect(server.service.gate.counts == (0, 0))
        }
    }
}
