import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServe
@testable import WIServeCore

/// Decoders in sandboxed workers behind the service: a source whose decoder crashes, hangs or makes a forbidden
/// system call costs its own request (502, or 504 at the deadline with the worker killed), never the service.
@Suite(.serialized) struct ServeIsolationTests {
    typealias H = ServeHarness
    static let worker = CommandRunner.productPath("wi-hostile-worker")

    static func svg(_ action: String) -> Data {
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><!--HOSTILE:\(action)--></svg>".utf8)
    }

    @Test func hostileDecodersCostTheirRequestAlone() async throws {
        let h = try await ServeHarness()
        for action in ["crash", "hang", "open", "socket"] {
            let body = Self.svg(action)
            h.origin.route("/\(action).svg") { _ in WITestServer.TestResponse(body: body, contentType: "image/svg+xml")
            }
        }
        let configuration = H.configuration {
            $0.isolation = .all
            $0.workerCommand = [Self.worker]
            $0.timeout = 0.5
        }
        let log = CapturingLogHandler.Store()
        try await h.withServer(configuration, logger: CapturingLogHandler.logger(log)) { server, client in
            let crash = try await client.execute(uri: "/unsafe/10x10/\(h.url("/crash.svg"))", method: .get)
            #expect(crash.status == .badGateway)
            #expect(H.text(crash) == "the source could not be decoded: its decoder failed\n")
            for action in ["open", "socket"] {
                let forbidden = try await client.execute(uri: "/unsafe/10x10/\(h.url("/\(action).svg"))", method: .get)
                #expect(forbidden.status == .badGateway)
            }
            // What ended each worker is in its access-log line, not in the answer.
            #expect(
                log.all.compactMap { $0.metadata["error"] } == [
                    "1040: the decoder crashed (signal 11, Segmentation fault)",
                    "1040: the decoder made a forbidden system call (seccomp) and was stopped",
                    "1040: the decoder made a forbidden system call (seccomp) and was stopped",
                ])
            // A decoder that never returns: the 504 comes at the deadline with its worker killed, nothing running.
            let hang = try await client.execute(uri: "/unsafe/10x10/\(h.url("/hang.svg"))", method: .get)
            #expect(hang.status == .gatewayTimeout)
            #expect(server.service.parts.pool.runningCancellableJobs == 0)
            // The service goes on, decoding in its workers as before.
            let image = try await h.stripes(client, "100x50/")
            #expect(image.size == PixelSize(width: 100, height: 50))
            #expect(image.pixels.color(x: 50, y: 25).isClose(to: H.green))
            #expect(server.service.gate.counts == (0, 0))
        }
    }

    @Test func isolationNeedsAWorkerCommand() async throws {
        var configuration = ServeConfiguration()
        configuration.isolation = .uncancellable
        #expect(throws: ImageError.self) { try configuration.validate() }
        configuration.workerCommand = [Self.worker]
        try configuration.validate()
    }
}
