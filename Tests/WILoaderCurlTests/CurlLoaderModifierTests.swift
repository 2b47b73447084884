import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderModifierTests {
    @Test func requestModifierChangesURLHeadersAndMethodOrCancels() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/moved") { request in
            TestResponse(body: Data(request.method.utf8), contentType: "image/png")
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        var context = ImageContext()
        context[.requestModifier] = ImageLoading.BlockRequestModifier { request in
            var changed = request
            changed.url = server.url("/moved")
            changed.method = "POST"
            changed.headers["X-Signed"] = "yes"
            changed.headers["Accept"] = "image/webp"
            return changed
        }
        let result = await loader.result(ImageLoading.Request(url: server.url("/original"), context: context))
        #expect(result.value?.data == Data("POST".utf8))
        #expect(server.requestCount("/original") == 0)
        let seen = try #require(server.requests("/moved").first)
        #expect(seen.headers["x-signed"] == "yes")
        #expect(seen.headers["accept"] == "image/webp")

        var cancelling = ImageContext()
        cancelling[.requestModifier] = ImageLoading.BlockRequestModifier { _ in nil }
        let cancelled = await loader.result(ImageLoading.Request(url: server.url("/moved"), context: cancelling))
        #expect(cancelled.error?.code == .invalidDownloadOperation)
        #expect(server.requestCount("/moved") == 1)
    }

    @Test func responseModifierRewritesOrRejects() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a") { _ in TestResponse(body: Data([9]), contentType: "application/octet-stream") }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.acceptableContentTypes = ["image/png"] })
        var fixing = ImageContext()
        fixing[.responseModifier] = ImageLoading.BlockResponseModifier { head in
            var changed = head
            changed.headers["content-type"] = "image/png"
            return changed
        }
        let fixed = await loader.result(ImageLoading.Request(url: server.url("/a"), context: fixing))
        #expect(fixed.value?.response?.mimeType == "image/png")
        #expect(await loader.result(server.url("/a")).error?.code == .invalidDownloadContentType)
        var rejecting = ImageContext()
        rejecting[.responseModifier] = ImageLoading.BlockResponseModifier { _ in nil }
        let rejected = await loader.result(ImageLoading.Request(url: server.url("/a"), context: rejecting))
        #expect(rejected.error?.code == .invalidDownloadResponse)
    }

    /// SDWebImage's `test24ThatDownloadResponseModifierWorks` and `test29AcceptableStatusCodeAndContentType`: a head
    /// refused for its status or content type (after the response modifier changed it) still reaches the caller,
    /// as a `.response` event just before the failure; a head the modifier rejects does not.
    @Test func aRefusedHeadIsReportedBeforeTheFailure() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/a.jpg") { _ in TestResponse(body: Data([1, 2, 3]), contentType: "image/jpeg") }
        func heads(_ recorder: LoadRecorder) -> [String] {
            recorder.events.compactMap {
                guard case .response(let head) = $0 else { return nil }
                return "\(head.statusCode ?? 0) \(head.mimeType ?? "-") foo=\(head.headers["foo"] ?? "-")"
            }
        }
        // The modifier turns the 200 into a 404 with a header of its own: 2001, and the caller sees that head.
        let loader = try CurlImageLoader(configuration: testConfiguration())
        var notFound = ImageContext()
        notFound[.responseModifier] = ImageLoading.BlockResponseModifier { head in
            var changed = head
            changed.statusCode = 404
            changed.headers["foo"] = "Bar"
            return changed
        }
        let (_, modified) = loader.start(ImageLoading.Request(url: server.url("/a.jpg"), context: notFound))
        let error = try #require(await modified.waitForCompletion()?.error)
        #expect(error.code == .badServerResponse && error.statusCode == 404)
        #expect(heads(modified) == ["404 image/jpeg foo=Bar"])
        // Status codes 1 only (SD's config1): 2001, the head says 200.
        let statusOne = try CurlImageLoader(configuration: testConfiguration { $0.acceptableStatusCodes = [1] })
        let (_, refused) = statusOne.start(server.url("/a.jpg"))
        #expect(await refused.waitForCompletion()?.error?.code == .badServerResponse)
        #expect(heads(refused) == ["200 image/jpeg foo=-"])
        // JSON only (SD's config2): 2004, the head says image/jpeg.
        let json = try CurlImageLoader(
            configuration: testConfiguration { $0.acceptableContentTypes = ["application/json"] })
        let (_, wrongType) = json.start(server.url("/a.jpg"))
        #expect(await wrongType.waitForCompletion()?.error?.code == .invalidDownloadContentType)
        #expect(heads(wrongType) == ["200 image/jpeg foo=-"])
        // The modifier rejects: 2003 and no head.
        var rejecting = ImageContext()
        rejecting[.responseModifier] = ImageLoading.BlockResponseModifier { _ in nil }
        let (_, rejected) = loader.start(ImageLoading.Request(url: server.url("/a.jpg"), context: rejecting))
        #expect(await rejected.waitForCompletion()?.error?.code == .invalidDownloadResponse)
        #expect(heads(rejected).isEmpty)
    }

    /// `defaultMaxAge` gives answers without freshness information a max-age, and leaves the others alone.
    @Test func defaultMaxAgeFillsOnlyWhatTheOriginLeftOut() async throws {
        let server = try await TestHTTPServer.start()
        let png = Data([0x89, 0x50, 0x4E, 0x47])
        server.route("/silent") { _ in TestResponse(body: png, contentType: "image/png") }
        server.route("/private") { _ in
            TestResponse(headers: [("Cache-Control", "private")], body: png, contentType: "image/png")
        }
        server.route("/stated") { _ in
            TestResponse(headers: [("Cache-Control", "max-age=5")], body: png, contentType: "image/png")
        }
        server.route("/expires") {
            _ in
            TestResponse(headers: [("Expires", "Sun, 06 Nov 1994 08:49:37 GMT")], body: png, contentType: "image/png")
        }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.defaultMaxAge = 600 })
        func control(_ path: String) async -> String? {
            await loader.result(server.url(path)).value?.response?.headers["cache-control"]
        }
        #expect(await control("/silent") == "max-age=600")
        #expect(await control("/private") == "private, max-age=600")
        #expect(await control("/stated") == "max-age=5")
        #expect(await control("/expires") == nil)
        let plain = try CurlImageLoader(configuration: testConfiguration())
        #expect(await plain.result(server.url("/silent")).value?.response?.headers["cache-control"] == nil)
    }

    @Test func decryptorTurnsBytesIntoImageBytesOrFails() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/secret") { _ in TestResponse(body: Data([0x01, 0x02, 0x03]), contentType: "image/png") }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        var xor = ImageContext()
        xor[.decryptor] = ImageLoading.BlockDataDecryptor { data, head in
            head?.statusCode == 200 ? Data(data.map { $0 ^ 0xff }) : nil
        }
        let plain = await loader.result(ImageLoading.Request(url: server.url("/secret"), context: xor))
        #expect(plain.value?.data == Data([0xfe, 0xfd, 0xfc]))
        var failing = ImageContext()
        failing[.decryptor] = ImageLoading.BlockDataDecryptor { _, _ in nil }
        let failed = await loader.result(ImageLoading.Request(url: server.url("/secret"), context: failing))
        #expect(failed.error?.code == .badImageData)
    }

    @Test func credentialsAnswerBasicAuth() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/private") { request in
            .basicAuth(
                user: "ann", password: "s3cret", request: request,
                then: TestResponse(body: Data([7]), contentType: "image/png"))
        }
        let anonymous = try CurlImageLoader(configuration: testConfiguration())
        #expect(await anonymous.result(server.url("/private")).error?.statusCode == 401)
        let wrong = try CurlImageLoader(
            configuration: testConfiguration {
                $0.credentials = .init(user: "ann", password: "nope")
            })
        #expect(await wrong.result(server.url("/private")).error?.statusCode == 401)
        let right = try CurlImageLoader(
            configuration: testConfiguration {
                $0.credentials = .init(user: "ann", password: "s3cret")
            })
        #expect(await right.result(server.url("/private")).value?.data == Data([7]))
    }

    @Test func credentialsAreNotForwardedToAnotherHost() async throws {
        let server = try await TestHTTPServer.start()
        // 127.0.0.1 and localhost are different hosts to libcurl: the redirect target must not see the password.
        server.route("/start") { _ in .redirect(to: "http://localhost:\(server.port)/landing") }
        server.route("/landing") { _ in TestResponse(body: Data([1]), contentType: "image/png") }
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.credentials = .init(user: "ann", password: "s3cret")
            })
        var context = ImageContext()
        context[.requestModifier] = ImageLoading.BlockRequestModifier { request in
            var changed = request
            changed.headers["Authorization"] = "Basic " + Data("ann:s3cret".utf8).base64EncodedString()
            return changed
        }
        let result = await loader.result(ImageLoading.Request(url: server.url("/start"), context: context))
        #expect(result.value?.metrics?.redirectCount == 1)
        #expect(server.requests("/start").first?.headers["authorization"] != nil)
        #expect(server.requests("/landing").first?.headers["authorization"] == nil)
    }

    @Test func cookiesRoundTripWhenAsked() async throws {
        let server = try await TestHTTPServer.start()
        server.route("/set") { _ in
            TestResponse(headers: [("Set-Cookie", "session=abc123; Path=/")], body: Data([1]), contentType: "image/png")
        }
        server.route("/check") { request in
            TestResponse(body: Data((request.headers["cookie"] ?? "none").utf8), contentType: "image/png")
        }
        let loader = try CurlImageLoader(configuration: testConfiguration())
        let withCookies = { (url: URL) in ImageLoading.Request(url: url, options: [.handleCookies]) }
        _ = await loader.result(withCookies(server.url("/set")))
        let sent = await loader.result(withCookies(server.url("/check")))
        #expect(sent.value?.data == Data("session=abc123".utf8))
        // The same loader without the option sends none, although the jar holds one and the transfer may run on
        // the easy handle the cookie request used (HTTP/1.1 handles are reused).
        #expect(await loader.result(server.url("/check")).value?.data == Data("none".utf8))
        let plain = try CurlImageLoader(configuration: testConfiguration())
        _ = await plain.result(server.url("/set"))
        #expect(await plain.result(server.url("/check")).value?.data == Data("none".utf8))
    }
}
