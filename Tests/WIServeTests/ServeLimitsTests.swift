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
        let log = CapturingLogHandler.Store()
        try await h.withServer(H.configuration { $0.concurrency = 1; $0.queue = 1 },
                               logger: CapturingLogHandler.logger(log)) { server, client in
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
            // The refusal has its own access-log line, the only one so far (the others are still working).
            #expect(log.all == [.init(level: .info, message: "GET /unsafe/30x30/\(h.url("/gated.png")) 503 43 0.0ms",
                                      status: "503")])
            let head = try await client.execute(uri: "/unsafe/40x40/\(h.url("/gated.png"))", method: .head)
            #expect(head.status == .serviceUnavailable && head.headers[.contentLength] == "43" && head.body.readableBytes == 0)
            h.gate.open()
            let (a, b) = try await (first, second)
            #expect(a.status == .ok && b.status == .ok)
            #expect(try H.image(a).size == PixelSize(width: 10, height: 10))
            #expect(try H.image(b).size == PixelSize(width: 20, height: 20))
            #expect(gate.counts == (0, 0))
            // The origin saw one request per admitted load (no cache here): the refused one never reached it.
            #expect(h.origin.requestCount("/gated.png") == 2)
        }
        // One line per request, in the order they ended: two refusals, then the two admitted ones.
        let lines = log.all
        #expect(lines.map(\.status) == ["503", "503", "200", "200"])
        #expect(lines.allSatisfy { $0.level == .info })
        #expect(lines[1].message == "HEAD /unsafe/40x40/\(h.url("/gated.png")) 503 43 0.0ms")
        let admitted = Set(lines[2...].map { $0.message.split(separator: " ").prefix(3).joined(separator: " ") })
        #expect(admitted == ["GET /unsafe/10x10/\(h.url("/gated.png")) 200", "GET /unsafe/20x20/\(h.url("/gated.png")) 200"])
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
