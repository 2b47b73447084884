import Foundation
import HTTPTypes
import HummingbirdTesting
import Synchronization
import Testing
import WebImage
@testable import WIServe
@testable import WIServeCore

/// The encoded-variant cache: a repeated request is answered from the stored bytes (no load, no encode), a 304 from
/// the stored ETag, a new server over the same folder answers from disk; `--no-cache` renders every time. Counts
/// are exact: `renders` (requests through the pipeline) and the origin's request log.
@Suite(.serialized) struct ServeVariantCacheTests {
    typealias H = ServeHarness

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "wi-serve-variants-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func repeatedRequestsAreAnsweredFromTheStoredVariant() async throws {
        let h = try await ServeHarness()
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let configuration = H.configuration {
            $0.useCache = true
            $0.cacheDirectory = folder
        }
        let path = "/unsafe/fit-in/50x50/filters:quality(70)/\(h.url("/stripes.jpg"))"
        let firstBody = Locked<Data>(Data())
        let firstETag = Locked<String>("")
        try await h.withServer(configuration, keepOrigin: true) { server, client in
            let renders = { server.service.renders.load(ordering: .relaxed) }
            let first = try await client.execute(uri: path, method: .get)
            #expect(first.status == .ok)
            #expect(try H.image(first).size == PixelSize(width: 50, height: 25))
            let etag = try #require(first.headers[.eTag])
            #expect(renders() == 1)
            let again = try await client.execute(uri: path, method: .get)
            #expect(again.status == .ok)
            #expect(H.data(again) == H.data(first))
            #expect(again.headers[.eTag] == etag)
            #expect(again.headers[.contentType] == "image/jpeg")
            let head = try await client.execute(uri: path, method: .head)
            #expect(head.headers[.contentLength] == String(H.data(first).count))
            #expect(head.body.readableBytes == 0)
            let notModified = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            #expect(notModified.headers[.eTag] == etag)
            #expect(renders() == 1)  // three answers from the variant, none through the pipeline
            // Another variant of the same source is rendered (its source comes from the caches, not the origin).
            let png = try await client.execute(
                uri: "/unsafe/fit-in/50x50/filters:format(png)/\(h.url("/stripes.jpg"))",
                method: .get)
            #expect(png.headers[.contentType] == "image/png")
            #expect(renders() == 2)
            // Both answers are in the memory tier, a DataMemoryCache named as the service's tier always was.
            let memory = try #require(server.service.parts.variants?.tiers.first as? DataMemoryCache)
            #expect(memory.metricsName == "variants")
            #expect(memory.byteLimit == configuration.variantMemoryBytes)
            #expect(memory.usage == (H.data(first).count + H.data(png).count, 2))
            #expect(h.origin.requestCount("/stripes.jpg") == 1)
            firstBody.set(H.data(first))
            firstETag.set(etag)
        }
        // A new server over the same folder answers from the disk tier: no origin request, nothing rendered.
        try await h.withServer(configuration) { server, client in
            let etag = firstETag.value
            let notModified = try await client.execute(
                uri: path, method: .get, headers: [.ifNoneMatch: "\"x\", \(etag)"])
            #expect(notModified.status == .notModified)
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .ok)
            #expect(H.data(response) == firstBody.value)
            #expect(response.headers[.eTag] == etag)
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(server.service.renders.load(ordering: .relaxed) == 0)
            #expect(h.origin.requestCount("/stripes.jpg") == 1)
        }
    }

    @Test func withoutCachesEveryRequestIsRendered() async throws {
        let h = try await ServeHarness()
        try await h.withServer(H.configuration()) { server, client in
            let path = "/unsafe/fit-in/50x50/\(h.url("/stripes.png"))"
            let first = try await client.execute(uri: path, method: .get)
            let etag = try #require(first.headers[.eTag])
            let second = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag])
            #expect(second.status == .notModified)  // decided after the work: the ETag hashes the output
            #expect(server.service.renders.load(ordering: .relaxed) == 2)
            #expect(h.origin.requestCount("/stripes.png") == 2)
        }
    }

    @Test func variantKeysSeparateFormatsAndAcceptedTypes() {
        func key(_ format: ImageFormat?, _ accept: String?, webP: Bool = true, avif: Bool = false) -> String {
            VariantCache.key(
                signedPath: "10x10/a.png", requested: format, accept: accept,
                negotiation: OutputFormat.Negotiation(webP: webP, avif: avif))
        }
        #expect(key(nil, nil) == "v4 auto 10x10/a.png")
        #expect(key(nil, "image/webp,*/*") == "v4 auto+webp 10x10/a.png")
        #expect(key(nil, "image/webp", webP: false) == "v4 auto 10x10/a.png")
        #expect(key(nil, "image/avif,image/webp", avif: true) == "v4 auto+avif+webp 10x10/a.png")
        #expect(key(.png, "image/webp") == "v4 png 10x10/a.png")
        // Every conversion the Accept header can switch on takes part; AUTO_PNG_TO_JPG does not read Accept.
        let all = OutputFormat.Negotiation(webP: true, avif: true, jpg: true, png: true, heif: true, pngToJPG: true)
        #expect(
            VariantCache.key(signedPath: "a.png", requested: nil, accept: "image/heif,image/png,*/*", negotiation: all)
                == "v4 auto+jpg+heif+png+png2jpg a.png")
        #expect(
            VariantCache.key(signedPath: "a.png", requested: nil, accept: nil, negotiation: all)
                == "v4 auto+png2jpg a.png")
        // Answers that keep metadata are other variants than the stripped ones.
        #expect(
            VariantCache.key(
                signedPath: "a.png", requested: nil, accept: nil, negotiation: OutputFormat.Negotiation(),
                keepMetadata: true) == "v4 meta auto a.png")
        #expect(
            VariantCache.key(
                signedPath: "a.png", requested: nil, accept: nil, negotiation: OutputFormat.Negotiation(),
                keepCopyright: true) == "v4 copyright auto a.png")
        // Other default qualities make other variants; thumbor's defaults keep the keys stored before them.
        #expect(
            VariantCache.key(
                signedPath: "a.png", requested: .jpeg, accept: nil, negotiation: OutputFormat.Negotiation(),
                qualities: "q90/=/=") == "v4 q90/=/= jpeg a.png")
    }
}

/// A value shared between a test's closures.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    func set(_ value: Value) { storage.withLock { $0 = value } }
}
