import CustomPlugins
import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct CustomPluginsTests {
    /// A 3x2 P6 file: red, green, blue / white, black, grey(128).
    static let ppm =
        Data("P6\n# a comment\n3 2\n255\n".utf8)
        + Data([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 128, 128, 128])

    @Test func decodesAndEncodesNetpbm() throws {
        let coder = NetpbmCoder()
        #expect(coder.canDecode(Self.ppm))
        #expect(!coder.canDecode(Data("P3\n".utf8)))  // ASCII Netpbm is not supported
        let image = try coder.decode(Self.ppm, options: .init())
        #expect(image.size == PixelSize(width: 3, height: 2))
        #expect(image.pixels.color(x: 1, y: 0) == RGBAColor(red: 0, green: 255, blue: 0))
        #expect(image.pixels.color(x: 2, y: 1) == RGBAColor(red: 128, green: 128, blue: 128))
        let pam = try coder.encode(
            image.with(frames: [
                ImageFrame(
                    pixels: try PixelBuffer(
                        width: 1, height: 1, format: .rgba8, bytes: [10, 20, 30, 40]))
            ]), as: .netpbm, options: .init())
        #expect(String(decoding: pam.prefix(2), as: UTF8.self) == "P7")
        #expect(
            try coder.decode(pam, options: .init()).pixels.color(x: 0, y: 0)
                == RGBAColor(red: 10, green: 20, blue: 30, alpha: 40))
        let roundTrip = try coder.decode(try coder.encode(image, as: .netpbm, options: .init()), options: .init())
        #expect(roundTrip.pixels == image.pixels)
        let short = #expect(throws: ImageError.self) { try coder.decode(Self.ppm.dropLast(4), options: .init()) }
        #expect(short?.code == .badImageData)
    }

    @Test func bothPluginsWorkThroughThePipeline() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.ppm.write(to: folder.appendingPathComponent("icons/flag.ppm"))

        let coders = ImageCodersManager(coders: [NetpbmCoder()])
        let loaders = ImageLoadersManager(loaders: [
            AssetLoader(root: folder.path, pool: WorkerPool(name: "assets", threads: 1))
        ])
        let memory = MockMemoryCache()
        let manager = ImageManager(
            cache: TieredImageCache(memory: memory, dataTiers: [], coders: coders),
            loader: loaders, coders: coders)
        let url = URL(string: "asset:icons/flag.ppm")!
        let result = try await manager.loadImage(with: url, options: .waitStoreCache)
        #expect(result.image.format == .netpbm)
        #expect(result.image.size == PixelSize(width: 3, height: 2))
        #expect(result.cacheType == .none)
        #expect(try await manager.loadImage(with: url).cacheType == .memory)

        let missing = await #expect(throws: ImageError.self) {
            try await manager.loadImage(with: URL(string: "asset:icons/none.ppm"))
        }
        #expect(missing?.statusCode == 404)
        let escape = await #expect(throws: ImageError.self) {
            try await manager.loadImage(with: URL(string: "asset:../etc/passwd"))
        }
        #expect(escape?.code == .invalidURL)
    }
}
