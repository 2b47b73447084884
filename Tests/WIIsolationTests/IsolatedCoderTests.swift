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

    static func isolated(
        formats: Set<ImageFormat>? = nil, memoryLimit: Int = 1 << 30,
        fileAccess: IsolatedCoder.FileAccess? = nil
    ) throws -> IsolatedCoder {
        try IsolatedCoder(
            configuration: .init(
                command: [worker], formats: formats, memoryLimit: memoryLimit,
                fileAccess: fileAccess),
            coders: coders)
    }

    static func hostile(_ action: String) -> Data { Data("HOSTILE:\(action)".utf8) }

    @Test(arguments: [
        "png/iccp-displayp3.png", "svg/resvg/clip-rule-clip-rule_evenodd.svg", "pdf/square.pdf",
        "heic/gradient-alpha.avif", "jpeg/exif-xmp-metadata.jpg", "gif/animated-red-blue.gif",
    ])
    func decodesAsInProcess(path: String) async throws {
        let coder = try Self.isolated()
        let data = try Data(contentsOf: Fixtures.url(path))
        #expect(coder.canDecode(data))
        var viewport = DecodeOptions()  // the SVG drawn into a 40x20 box; the other formats ignore it
        viewport.vectorViewport = PixelSize(width: 40, height: 20)
        for options in [DecodeOptions(), DecodeOptions(thumbnailPixelSize: PixelSize(width: 40, height: 40)), viewport]
        {
            let local = try Self.coders.decode(data, options: options)
            let remote = try coder.decode(data, options: options)
            #expect(remote.frameCount == local.frameCount, "\(path)")
            #expect(remote.size == local.size, "\(path)")
            #expect(remote.durations == local.durations, "\(path)")
            #expect(remote.metadata == local.metadata, "\(path)")
            #expect(remote.format == local.format && remote.loopCount == local.loopCount, "\(path)")
            for index in 0..<local.frameCount {
                #expect(
                    try remote.frame(at: index).pixels == (try local.frame(at: index).pixels), "\(path) frame \(index)")
            }
        }
        await coder.shutdown()
    }

    @Test func onlyTheChosenFormatsGoToWorkers() async throws {
        let coder = try Self.isolated(formats: IsolatedCoder.uncancellableFormats)
        #expect(coder.canDecode(try Data(contentsOf: Fixtures.url("pdf/square.pdf"))))
        #expect(!coder.canDecode(try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))))
        #expect(
            Set(coder.decodingFormats)
                == Set(Self.coders.decodingFormats).intersection(IsolatedCoder.uncancellableFormats))
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
            try coder.decode(
                try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png")), options: DecodeOptions(pixelLimit: 1_000))
        }
        #expect(limited?.code == .pixelLimitExceeded)
        #expect(coder.startedCount == 1)  // an error answer keeps its worker
        await coder.shutdown()
    }

    @Test(arguments: [
        ("crash", "the decoder crashed (signal 11, Segmentation fault)"),
        ("open", "the decoder made a forbidden system call (seccomp) and was stopped"),
        ("socket", "the decoder made a forbidden system call (seccomp) and was stopped"),
        ("exit", "the decode worker exited with status 3"),
    ])
    func aWorkerThatDiesCostsOneRequest(action: String, reason: String) async throws {
        let coder = try Self.isolated()
        let error = #expect(throws: ImageError.self) {
            try coder.decode(Self.hostile(action), options: DecodeOptions())
        }
        #expect(error?.code == .decoderCrashed)
        #expect(error?.message == reason)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/wi-hostile-worker-was-here"))
        // Replaced: the next decode finds a worker.
        #expect(coder.startedCount == 2)
        let png = try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))
        #expect(
            try coder.decode(png, options: DecodeOptions()).pixels
                == (try Self.coders.decode(png, options: DecodeOptions()).pixels))
        #expect(coder.startedCount == 2)
        await coder.shutdown()
    }

    /// Landlock: a worker reads only the system's folders (libraries, fonts), not the service's files; while the
    /// same worker still decodes an SVG with text (fonts found) and a PDF.
    @Test func aWorkerReadsOnlyTheSystemFolders() async throws {
        let coder = try Self.isolated()
        let error = #expect(throws: ImageError.self) {
            try coder.decode(Self.hostile("read"), options: DecodeOptions())
        }
        #expect(error?.message == "read refused (errno 13)")
        #expect(coder.startedCount == 1)  // an ordinary error: the worker stays
        for path in ["svg/peers/twelvemonkeys-barChart.svg", "pdf/square.pdf"] {  // the chart has text
            let data = try Data(contentsOf: Fixtures.url(path))
            #expect(
                try coder.decode(data, options: DecodeOptions()).pixels
                    == (try Self.coders.decode(data, options: DecodeOptions()).pixels))
        }
        await coder.shutdown()
    }

    /// A worker that may open no file opened its libraries (libheif and its plugins, libjxl, libtiff) before its
    /// sandbox: it decodes every format that draws no text as the test's process does, and dies on any open.
    @Test func aWorkerWithoutFilesDecodesEveryRasterFormat() async throws {
        let coder = try Self.isolated(fileAccess: IsolatedCoder.FileAccess.none)
        let paths = [
            "png/iccp-displayp3.png", "apng/basic_f20.png", "jpeg/hat-progressive.jpg",
            "jpeg/hat-arithmetic.jpg", "gif/animated-red-blue.gif", "webp/animated-blend.webp",
            "webp/alpha_filter_1.webp", "tiff/16_bits.tiff", "jxl/5_frames_numbered_jxli.jxl",
            "jxl/3x3a_srgb_lossy.jxl", "heic/gradient-alpha.heic", "heic/gradient-alpha.avif",
            "heic/grid-89x111.heic", "bmp/irs-Info_8_Bit.bmp", "bmp/fc-24bipp.ico",
        ]
        for path in paths {
            let data = try Data(contentsOf: Fixtures.url(path))
            let local = try Self.coders.decode(data, options: DecodeOptions())
            let remote = try coder.decode(data, options: DecodeOptions())
            #expect(remote.frameCount == local.frameCount && remote.size == local.size, "\(path)")
            for index in 0..<local.frameCount {
                #expect(
                    try remote.frame(at: index).pixels == (try local.frame(at: index).pixels), "\(path) frame \(index)")
            }
        }
        #expect(coder.startedCount == 1)  // no decode opened a file
        let error = #expect(throws: ImageError.self) {
            try coder.decode(Self.hostile("read"), options: DecodeOptions())
        }
        #expect(error?.code == .decoderCrashed)
        #expect(error?.message == "the decoder made a forbidden system call (seccomp) and was stopped")
        #expect(coder.startedCount == 2)
        await coder.shutdown()
    }

    /// Little CMS too opens before the sandbox (and reads the time zone then): a worker that may open no file
    /// converts to sRGB as the test's process does, CMYK, 16-bit and non-ICC descriptions included.
    @Test func aWorkerWithoutFilesConvertsToSRGB() async throws {
        let coder = try Self.isolated(fileAccess: IsolatedCoder.FileAccess.none)
        var options = DecodeOptions()
        options.targetColorSpace = .sRGB
        for path in ["color/p3.jpg", "color/cmyk.jpg", "color/prophoto16.png", "color/gama-chrm.png"] {
            let data = try Data(contentsOf: Fixtures.url(path))
            let local = try Self.coders.decode(data, options: options)
            let remote = try coder.decode(data, options: options)
            #expect(remote.pixels == local.pixels, "\(path)")
            #expect(remote.metadata.iccProfile == nil && remote.metadata.colorDescription == nil, "\(path)")
        }
        #expect(coder.startedCount == 1)
        await coder.shutdown()
    }

    @Test func fileAccessFollowsTheFormats() throws {
        let raster = IsolatedCoder.Configuration(command: ["wi"], formats: [.heic, .avif, .png])
        #expect(raster.fileAccess == .none)
        #expect(IsolatedCoder.Configuration(command: ["wi"], formats: [.heic, .svg]).fileAccess == .fonts)
        #expect(IsolatedCoder.Configuration(command: ["wi"]).fileAccess == .fonts)
    }

    /// Fontconfig writes the cache of a font folder it finds stale or missing: a worker does it before its
    /// sandbox (inside, the open for writing would end it), then draws text with the fonts it found.
    @Test func aWorkerWritesFontCachesBeforeItsSandbox() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wi-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = folder.appendingPathComponent("fonts.conf")
        try Data(
            """
            <?xml version="1.0"?>
            <fontconfig>
              <cachedir>\(folder.path)/cache</cachedir>
              <dir>/usr/share/fonts/truetype/dejavu</dir>
              <include ignore_missing="yes">/etc/fonts/conf.d</include>
            </fontconfig>
            """.utf8
        ).write(to: configuration)
        var settings = IsolatedCoder.Configuration(command: [Self.worker], formats: [.svg])
        settings.environment["FONTCONFIG_FILE"] = configuration.path
        let coder = try IsolatedCoder(configuration: settings, coders: Self.coders)
        let data = try Data(contentsOf: Fixtures.url("svg/peers/twelvemonkeys-barChart.svg"))  // text
        #expect(
            try coder.decode(data, options: DecodeOptions()).pixels
                == (try Self.coders.decode(data, options: DecodeOptions()).pixels))
        let caches = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/cache")
        #expect(caches.filter { $0.contains(".cache-") }.count == 1)
        #expect(coder.startedCount == 1)
        await coder.shutdown()
    }

    @Test func anAllocationPastTheLimitFailsInTheWorker() async throws {
        let coder = try Self.isolated(memoryLimit: 1 << 30)
        let error = #expect(throws: ImageError.self) {
            try coder.decode(Self.hostile("allocate"), options: DecodeOptions())
        }
        #expect(error?.code == .outOfMemory)
        #expect(
            error?.message.hasPrefix("allocated ") == true && error?.message.hasSuffix(" MiB, then no more") == true)
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
        guard case .failure(let error) = result else {
            Issue.record("the hanging decode returned")
            return
        }
        #expect((error as? ImageError)?.code == .cancelled)
        #expect(coder.startedCount == 2)  // killed, and replaced
        let png = try Data(contentsOf: Fixtures.url("png/iccp-displayp3.png"))
        #expect(
            try coder.decode(png, options: DecodeOptions()).pixels
                == (try Self.coders.decode(png, options: DecodeOptions()).pixels))
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
