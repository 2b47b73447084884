import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
@testable import WIServe
@testable import WIServeCore

/// A request that waits for bytes holds no working slot (issue 38, decision 0086): a slow origin does not stop
/// other requests, requests sharing one download do not deadlock, and thumbor URLs nested deeper than
/// `--concurrency` are answered.
@Suite struct ServeSlotTests {
    typealias H = ServeHarness

    @Test func aRequestWaitingForItsOriginHoldsNoSlot() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration { $0.concurrency = 1 }) { server, client in
            let gate = server.service.gate
            async let slow = client.execute(uri: "/unsafe/10x10/\(h.url("/gated.png"))", method: .get)
            for await _ in h.arrivals { break }
            try await AdmissionGateTests.wait(gate, for: (0, 0), yielded: 1)
            // The one slot is free for another request while the first waits for its origin.
            let quick = try await client.execute(uri: "/unsafe/20x10/\(h.url("/stripes.png"))", method: .get)
            #expect(quick.status == .ok)
            #expect(try H.image(quick).size == PixelSize(width: 20, height: 10))
            #expect(gate.yielded == 1)
            h.gate.open()
            let answer = try await slow
            #expect(answer.status == .ok)
            #expect(try H.image(answer).size == PixelSize(width: 10, height: 10))
            #expect(gate.counts == (0, 0) && gate.yielded == 0)
        }
    }

    /// Decision 0078's deadlock: every slot held by requests that joined one download. Now they hold none; the
    /// download's owner takes the slot for the decode, each request one for its encode.
    @Test func requestsSharingOneDownloadDoNotDeadlock() async throws {
        let h = try await ServeHarness()
        try await h.withServer(
            H.configuration {
                $0.concurrency = 1
                $0.queue = 8
            }
        ) { server, client in
            let gate = server.service.gate
            let path = "/unsafe/fit-in/10x10/\(h.url("/gated.png"))"
            try await withThrowingTaskGroup(of: HummingbirdTesting.TestResponse.self) { group in
                for _ in 0..<6 { group.addTask { try await client.execute(uri: path, method: .get) } }
                for await _ in h.arrivals { break }
                try await AdmissionGateTests.wait(gate, for: (0, 0), yielded: 6)
                h.gate.open()
                var sizes: [PixelSize] = []
                for try await response in group {
                    #expect(response.status == .ok)
                    sizes.append(try H.image(response).size)
                }
                #expect(sizes == Array(repeating: PixelSize(width: 10, height: 5), count: 6))
            }
            #expect(h.origin.requestCount("/gated.png") == 1)
            #expect(gate.counts == (0, 0) && gate.yielded == 0)
        }
    }

    /// A thumbor URL whose source is a thumbor URL of the same server, three deep, with one slot: each level
    /// waits for the one below without holding the slot (it timed out after `--timeout` before).
    @Test func thumborURLsNestedThreeDeepAreAnsweredWithOneSlot() async throws {
        let h = try await ServeHarness()
        let server = try await ImageServer(
            configuration: H.configuration {
                $0.concurrency = 1
                $0.timeout = 10
            })
        try await server.makeApplication().test(.live) { client in
            let own = "http://127.0.0.1:\(try #require(client.port))"
            let innermost = "/unsafe/80x40/\(h.url("/stripes.png"))"
            let middle = "/unsafe/40x20/\(own)\(innermost)"
            let outer = "/unsafe/20x10/\(own)\(middle)"
            let answer = try await client.execute(uri: outer, method: .get)
            #expect(answer.status == .ok, "\(H.text(answer))")
            #expect(try H.image(answer).size == PixelSize(width: 20, height: 10))
            #expect(h.origin.requestCount("/stripes.png") == 1)
            #expect(server.service.renders.load(ordering: .relaxed) == 3)
            #expect(server.service.gate.counts == (0, 0) && server.service.gate.yielded == 0)
        }
        await server.manager.shutdown()
        await h.origin.stop()
    }
}
