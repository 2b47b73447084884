import Foundation
import Testing
import WebImage
import WITestServer
import WITestSupport
@testable import WIServeCore

/// `wi serve` answers in sRGB: a Display P3 photo and a CMYK press JPEG come out as Little CMS's tificc converts
/// them (Tests/Fixtures/color, Tests/Fixtures/make-color-fixtures.py), without their profiles.
@Suite struct ServeColorTests {
    typealias H = ServeHarness

    @Test(arguments: ["p3.jpg", "cmyk.jpg"])
    func answersAreConvertedToSRGB(_ fixture: String) async throws {
        let h = try await ServeHarness()
        let source = Fixtures.data("color/\(fixture)")
        h.origin.route("/\(fixture)") { _ in TestResponse(body: source, contentType: "image/jpeg") }
        let reference = try H.coders.decode(
            Fixtures.data("color/\(fixture.replacingOccurrences(of: ".jpg", with: ".ref.png"))"), options: .init())
        try await h.withServer(H.configuration()) { _, client in
            let response = try await client.execute(
                uri: "/unsafe/filters:format(png)/\(h.url("/\(fixture)"))", method: .get)
            #expect(response.status == .ok)
            let answer = try H.image(response)
            #expect(answer.metadata.iccProfile == nil)
            let psnr = try #require(answer.pixels.psnr(against: reference.pixels))
            #expect(psnr >= 45, "\(fixture): \(psnr) dB")
        }
    }
}

/// The same conversion in a sandboxed decode worker: Little CMS opens before the sandbox closes.
@Suite(.serialized) struct ServeIsolatedColorTests {
    typealias H = ServeHarness

    @Test func workersConvertToSRGB() async throws {
        let h = try await ServeHarness()
        let source = Fixtures.data("color/p3.jpg")
        h.origin.route("/p3.jpg") { _ in TestResponse(body: source, contentType: "image/jpeg") }
        let reference = try H.coders.decode(Fixtures.data("color/p3.ref.png"), options: .init())
        let configuration = H.configuration {
            $0.isolation = .all
            $0.workerCommand = [ServeIsolationTests.worker]
        }
        let log = CapturingLogHandler.Store()
        try await h.withServer(configuration, logger: CapturingLogHandler.logger(log)) { _, client in
            let response = try await client.execute(
                uri: "/unsafe/filters:format(png)/\(h.url("/p3.jpg"))", method: .get)
            #expect(response.status == .ok, "\(log.all.compactMap { $0.metadata["error"] })")
            let answer = try H.image(response)
            let psnr = try #require(answer.pixels.psnr(against: reference.pixels))
            #expect(psnr >= 45, "\(psnr) dB")
        }
    }
}
