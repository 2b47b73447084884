import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
@testable import WIServe
@testable import WIServeCore

/// 503 with Retry-After when the working slots and the line are full, and 504 after the timeout; the origin holds
/// its answers behind a gate, so every count is exact.
@Suite(.serialized) struct ServeLimitsTests {
    typealias H = ServeHarness

    @Test func fullServiceAnswers503WithRetryAfter() async throws {
        let h = try await ServeHarness()
        let log = CapturingLogHandler.Store()
        try await h.withServer(
            H.configuration {
                $0.concurrency = 1
                $0.queue = 1
            },
            logger: CapturingLogHandler.logger(log)
        ) { server, client in
            let gate = server.service.gate
            async let first = client.execute(uri: "/unsafe/10x10/\(h.url("/gated.png"))", method: .get)
            var arrivals = h.arrivals.makeAsyncIterator()
            _ = await arrivals.next()  // the first request is at the origin: in flight, its slot given back
            try await AdmissionGateTests.wait(gate, for: (0, 0), yielded: 1)
            async let second = client.execute(uri: "/unsafe/20x20/\(h.url("/gated.png"))", method: .get)
            // The second works at once and joins the first's download (the same source): both wait for its bytes.
            try await AdmissionGateTests.wait(gate, for: (0, 0), yielded: 2)
            let third = try await client.execute(uri: "/unsafe/30x30/\(h.url("/gated.png"))", method: .get)
            #expect(third.status == .serviceUnavailable)
            #expect(third.headers[.retryAfter] == "1")
            #expect(H.text(third) == "too many requests: 1 working and 1 waiting\n")
            // The refusal has its own access-log line, the only one so far (the others are still working).
            #expect(log.all.map(\.withoutDuration) == ["GET /unsafe/30x30/\(h.url("/gated.png")) 503 43"])
            #expect(log.all.map(\.status) == ["503"])
            let head = try await client.execute(uri: "/unsafe/40x40/\(h.url("/gated.png"))", method: .head)
            #expect(
                head.status == .serviceUnavailable && head.headers[.contentLength] == "43"
                    && head.body.readableBytes == 0)
            h.gate.open()
            let (a, b) = try await (first, second)
            #expect(a.status == .ok && b.status == .ok)
            #expect(try H.image(a).size == PixelSize(width: 10, height: 10))
            #expect(try H.image(b).size == PixelSize(width: 20, height: 20))
            #expect(gate.counts == (0, 0) && gate.yielded == 0)
            // The origin saw one request for the two admitted loads; the refused ones never reached it.
            #expect(h.origin.requestCount("/gated.png") == 1)
        }
        // One line per request, in the order they ended: two refusals, then the two admitted ones.
        let lines = log.all
        #expect(lines.map(\.status) == ["503", "503", "200", "200"])
        #expect(lines.allSatisfy { $0.level == .info })
        #expect(lines[1].withoutDuration == "HEAD /unsafe/40x40/\(h.url("/gated.png")) 503 43")
        let admitted = Set(lines[2...].map { $0.message.split(separator: " ").prefix(3).joined(separator: " ") })
        #expect(
            admitted == [
                "GET /unsafe/10x10/\(h.url("/gated.png")) 200",
                "GET /unsafe/20x20/\(h.url("/gated.png")) 200",
            ])
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

    /// `--timeout` counts the wait in line: a request queued behind a slot that is never given back gets its 504
    /// at its own deadline, saying so, and leaves the line.
    @Test func theWaitInLineCountsAgainstTheTimeout() async throws {
        let h = try await ServeHarness()
        try await h.withServer(
            H.configuration {
                $0.concurrency = 1
                $0.queue = 1
                $0.timeout = 0.3
            }
        ) { server, client in
            let gate = server.service.gate
            #expect(gate.tryAcquire() == .admitted)  // the only slot, held by the test
            let response = try await client.execute(uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get)
            #expect(response.status == .gatewayTimeout)
            #expect(H.text(response) == "the request took longer than 0.3 s (waiting for a slot)\n")
            #expect(gate.counts == (1, 0))
            #expect(h.origin.requestCount("/stripes.png") == 0)
            gate.release()
            let served = try await client.execute(uri: "/unsafe/10x10/\(h.url("/stripes.png"))", method: .get)
            #expect(served.status == .ok)
            #expect(gate.counts == (0, 0))
        }
    }

    /// A deadline stops the work: when a 25x25 convolution of a 1500x1000 source times out, its 504 comes after
    /// the convolution has stopped (no CPU job of the service runs on), and only then is its slot free.
    @Test func aTimedOutRequestsWorkHasStoppedWhenItAnswers() async throws {
        let h = try await ServeHarness()
        let large = try H.coders.encode(
            try H.solid(width: 1500, height: 1000, H.green), as: .png, options: EncodeOptions())
        h.origin.route("/large.png") { _ in WITestServer.TestResponse(body: large, contentType: "image/png") }
        let kernel = Array(repeating: "1", count: 625).joined(separator: ";")
        try await h.withServer(H.configuration { $0.timeout = 0.3 }) { server, client in
            let pool = server.service.parts.pool
            let response = try await client.execute(
                uri: "/unsafe/filters:convolution(\(kernel),25,true)/\(h.url("/large.png"))", method: .get)
            #expect(response.status == .gatewayTimeout)
            #expect(pool.runningCancellableJobs == 0)
            #expect(pool.pendingCount == 0)
            #expect(server.service.gate.counts == (0, 0))
            // A retry of the same request is answered from the failure memory: the same 504, no render started.
            let renders = server.service.renders.load(ordering: .relaxed)
            let retry = try await client.execute(
                uri: "/unsafe/filters:convolution(\(kernel),25,true)/\(h.url("/large.png"))", method: .get)
            #expect(retry.status == .gatewayTimeout)
            #expect(H.text(retry) == "the request took longer than 0.3 s\n")
            #expect(server.service.renders.load(ordering: .relaxed) == renders)
            #expect(h.origin.requestCount("/large.png") == 1)
        }
    }

    /// Every frame of an animation counts against `--max-pixels` and `--max-frames`, before any is decoded.
    @Test func animationsAreCountedFrameByFrame() async throws {
        let h = try await ServeHarness()
        let frames = try (0..<20).map { index in
            ImageFrame(
                pixels: try H.solid(width: 100, height: 100, index % 2 == 0 ? H.red : H.blue).pixels, duration: 0.1)
        }
        let gif = try H.coders.encode(Image(frames: frames, format: .gif), as: .gif, options: EncodeOptions())
        h.origin.route("/frames.gif") { _ in WITestServer.TestResponse(body: gif, contentType: "image/gif") }
        let path = "/unsafe/10x10/\(h.url("/frames.gif"))"
        try await h.withServer(H.configuration { $0.maxPixels = 150_000 }, keepOrigin: true) { _, client in
            // 20 frames x 100 x 100 = 200,000 pixels: over the limit although each frame is 10,000.
            let refused = try await client.execute(uri: path, method: .get)
            #expect(refused.status == .badRequest)
            #expect(H.text(refused).contains("100x100 x 20 frame(s) exceeds the pixel limit of 150000 pixels"))
        }
        try await h.withServer(H.configuration { $0.maxFrames = 10 }, keepOrigin: true) { _, client in
            let refused = try await client.execute(uri: path, method: .get)
            #expect(refused.status == .badRequest)
            #expect(H.text(refused).contains("20 frames exceed the frame limit of 10"))
        }
        try await h.withServer(
            H.configuration {
                $0.maxFrames = 20
                $0.maxPixels = 200_000
            }
        ) { _, client in
            let served = try await client.execute(uri: path, method: .get)
            #expect(served.status == .ok)
            let image = try H.image(served)
            #expect(image.frameCount == 20 && image.size == PixelSize(width: 10, height: 10))
        }
    }

    /// A source URL no DNS name can be is a 400 before any lookup or connection; too many filters are a 400.
    @Test func badSourceURLsAndTooManyFiltersAreRefusedFirst() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration { $0.maxFilters = 3 }) { _, client in
            for path in [
                "/unsafe/64x64/%zz", "/unsafe/64x64/http://%25zz/a.png", "/unsafe/64x64/http://a%20b/a.png",
                "/unsafe/64x64/http://-a/a.png",
            ] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .badRequest, "\(path)")
                #expect(H.text(response) == "bad image URL\n", "\(path)")
            }
            let four = "filters:grayscale():grayscale():grayscale():grayscale()"
            let refused = try await client.execute(uri: "/unsafe/\(four)/\(h.url("/stripes.png"))", method: .get)
            #expect(refused.status == .badRequest)
            #expect(H.text(refused) == "4 filters exceed the limit of 3\n")
            let three = "filters:grayscale():grayscale():grayscale()"
            #expect(
                try await client.execute(uri: "/unsafe/\(three)/\(h.url("/stripes.png"))", method: .get).status == .ok)
        }
        #expect(ImageService.httpURL("http://[::1]:8080/a.png") != nil)
        #expect(ImageService.httpURL("http://example.com/a%20b.png") != nil)
    }
}

/// `--max-request-memory`: a transform whose estimated peak is over the limit is refused before it starts.
@Suite struct ServeMemoryLimitTests {
    typealias H = ServeHarness

    @Test func aTransformOverTheMemoryLimitIsRefusedFirst() async throws {
        let h = try await ServeHarness()
        let large = try H.coders.encode(
            try H.solid(width: 3000, height: 2000, H.green), as: .png, options: EncodeOptions())
        h.origin.route("/large.png") { _ in WITestServer.TestResponse(body: large, contentType: "image/png") }
        try await h.withServer(H.configuration { $0.maxRequestMemory = 64 << 20 }) { server, client in
            // 6 MP: held in and out 48 MB; sharpen's 28 bytes a pixel more: about 205 MiB, over 64 MiB.
            let refused = try await client.execute(
                uri: "/unsafe/filters:sharpen(2,1,false)/\(h.url("/large.png"))", method: .get)
            #expect(refused.status == .badRequest)
            #expect(H.text(refused) == "the request would need about 205 MiB, over the memory limit of 64 MiB\n")
            // The same source, resized without filters: 45 MiB, answered.
            let plain = try await client.execute(uri: "/unsafe/300x200/\(h.url("/large.png"))", method: .get)
            #expect(plain.status == .ok)
            #expect(server.service.parts.pool.runningCancellableJobs == 0)
        }
    }
}
