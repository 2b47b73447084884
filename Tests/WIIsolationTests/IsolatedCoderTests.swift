import Foundation
import Synchronization
import Testing
import WebImage
import WIIsolation
import WITestSupport

/// Decoding in sandboxed worker processes: the same images as in process, and every way a decoder can misbehave
/// (crash, hang, unbounded allocation, forbidden system calls, exit) costs one request and one worker, which is
/// replaced; the test's own process goes on.
@Suite(.serialized) struct IsolatedCoderTests {
    static let worker = CommandRunner.productPath("wi-hostile-worker")
    static let coders = WebImage.makeCoders()

    static func isolated(formats: Set<ImageFormat>? = nil, memoryLimit: Int = 1 << 30) throws -> IsolatedCoder {
        try IsolatedCoder(configuration: .init(command: [worker], formats: formats, memoryLimit: memoryLimit),
                          coders: coders)
    }

    static func hostile(_ action: String) -> Data { Data("HOSTILE:\(action)".utf8) }

    @Test(arguments: ["png/iccp-displayp3.png", "svg/resvg/clip-rule-clip-rule_evenodd.svg", "pdf/square.pdf",
                      "heic/gradient-alpha.avif", "jpeg/exif-xmp-metadata.jpg", "gif/animated-red-blue.gif"])
    func decodesAsInProcess(path: String) async throws {
        let coder = try Self.isolated()
        let data = try Data(contentsOf: Fixtures.url(path))
        #expect(coder.canDecode(data))
        for options in [DecodeOptions(), DecodeOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40))] {
            let local = try Self.coders.decode(data, options: options)
            let remote = try coder.decode(data, options: options)
            #expect(remote.frameCount == local.frameCount, "\(path)")
            #expect(remote.size == local.size, "\(path)")
            #expect(remote.durations == local.durations, "\(path)")
            #expect(remote.metadata == local.metadata, "\(path)")
            #expect(remote.format == local.format && remote.loopCount == local.loopCount, "\(path)")
            for index in 0..<local.frameCount {
                #expect(try remote.frame(at: index).pixels == (try local.frame(at: index).pixels), "\(path) frame \(index)")
            }
        }
        await coder.shutdown()
    }

    @Test func onlyTheChosenFormatsGoToWorkers() async throws {
        let coder = try Self.isolated(formats: IsolatedCoder.uncancellableFormats)
        #expect(coder.canDecode(try Data(contentsOf: Fixtures.url("pdf/square.pdf"))))
        #expect(!coder.canDecode(try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))))
        #expect(Set(coder.decodingFormats) == Set(Self.coders.decodingFormats).intersection(IsolatedCoder.uncancellableFormats))
        await coder.shutdown()
    }

    @Test func decoderErrorsComeBackTyped() async throws {
        let coder = try Self.isolated()
        var png = try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))
        png.removeLast(png.count / 2)
        let local = #expect(throws: ImageError.self) { try Self.coders.decode(png, options: DecodeOptions()) }
        let remote = #expect(throws: ImageError.self) { try coder.decode(png, options: DecodeOptions()) }
        #expect(remote?.code == local?.code && remote?.message == local?.message)
        // Limits hold in the worker too.
        let limited = #expect(throws: ImageError.self) {
            try coder.decode(try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png")), options: DecodeOptions(pixelLimit: 1_000))
        }
        #expect(limited?.code == .pixelLimitExceeded)
        #expect(coder.startedCount == 1)   // an error answer keeps its worker
        await coder.shutdown()
    }

    @Test(arguments: [("crash", "the decoder crashed (signal 11, Segmentation fault)"),
                      ("open", "the decoder made a forbidden system call (seccomp) and was stopped"),
                      ("socket", "the decoder made a forbidden system call (seccomp) and was stopped"),
                      ("exit", "the decode worker exited with status 3")])
    func aWorkerThatDiesCostsOneRequest(action: String, reason: String) async throws {
        let coder = try Self.isolated()
        let error = #expect(throws: ImageError.self) { try coder.decode(Self.hostile(action), options: DecodeOptions()) }
        #expect(error?.code == .decoderCrashed)
        #expect(error?.message == reason)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/wi-hostile-worker-was-here"))
        // Replaced: the next decode finds a worker.
        #expect(coder.startedCount == 2)
        let png = try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))
        #expect(try coder.decode(png, options: DecodeOptions()).pixels == (try Self.coders.decode(png, options: DecodeOptions()).pixels))
        #expect(coder.startedCount == 2)
        await coder.shutdown()
    }

    /// Landlock: a worker reads only the system's folders (libraries, fonts), not the service's files; while the
    /// same worker still decodes an SVG with text (fonts found) and a PDF.
    @Test func aWorkerReadsOnlyTheSystemFolders() async throws {
        let coder = try Self.isolated()
        let error = #expect(throws: ImageError.self) { try coder.decode(Self.hostile("read"), options: DecodeOptions()) }
        #expect(error?.message == "read refused (errno 13)")
        #expect(coder.startedCount == 1)   // an ordinary error: the worker stays
        for path in ["svg/peers/twelvemonkeys-barChart.svg", "pdf/square.pdf"] {   // the chart has text
            let data = try Data(contentsOf: Fixtures.url(path))
            #expect(try coder.decode(data, options: DecodeOptions()).pixels == (try Self.coders.decode(data, options: DecodeOptions()).pixels))
        }
        await coder.shutdown()
    }

    @Test func anAllocationPastTheLimitFailsInTheWorker() async throws {
        let coder = try Self.isolated(memoryLimit: 1 << 30)
        let error = #expect(throws: ImageError.self) { try coder.decode(Self.hostile("allocate"), options: DecodeOptions()) }
        #expect(error?.code == .outOfMemory)
        #expect(error?.message.hasPrefix("allocated ") == true && error?.message.hasSuffix(" MiB, then no more") == true)
        // The worker survived its failed allocations and keeps serving.
        #expect(coder.startedCount == 1)
        await coder.shutdown()
    }

    @Test func aHangingDecodeEndsWithItsCancellation() async throws {
        let coder = try Self.isolated()
        let pool = WorkerPool(name: "test.isolation", threads: 1)
        defer { pool.shutdown() }
        let hang = Task { () throws(ImageError) -> Image in
            try await pool.runCancellable { () throws(ImageError) -> Image in
                try coder.decode(Self.hostile("hang"), options: DecodeOptions())
            }
        }
        while pool.runningCancellableJobs == 0 { await Task.yield() }
        hang.cancel()
        let result = await hang.result
        guard case .failure(let error) = result else { Issue.record("the hanging decode returned"); return }
        #expect((error as? ImageError)?.code == .cancelled)
        #expect(coder.startedCount == 2)   // killed, and replaced
        let png = try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))
        #expect(try coder.decode(png, options: DecodeOptions()).pixels == (try Self.coders.decode(png, options: DecodeOptions()).pixels))
        await coder.shutdown()
    }

    @Test func afterShutdownDecodesAreRefused() async throws {
        let coder = try Self.isolated()
        await coder.shutdown()
        let error = #expect(throws: ImageError.self) {
            try coder.decode(try Data(contentsOf: Fixtures.url("pdf/square.pdf")), options: DecodeOptions())
        }
        #expect(error?.code == .shutDown)
    }

    @Test func aCommandThatCannotStartIsAnInvalidArgument() {
        let error = #expect(throws: ImageError.self) {
            try IsolatedCoder(configuration: .init(command: ["/nonexistent/wi"]), coders: Self.coders)
        }
        #expect(error?.code == .invalidArgument)
    }
}
