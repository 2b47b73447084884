import Foundation
import Testing
import WICacheDisk
import WICoderPNG
import WICore
import WITestSupport

@Suite struct ConvertAndCacheCommandTests {
    let wi = CommandRunner.productPath("wi")

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wi-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// `wi info --json` fields of one file.
    func info(_ path: String) throws -> [String: Any] {
        let result = try CommandRunner.run(wi, ["info", path, "--json"])
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    }

    @Test func convertsBetweenEveryPairOfEncodableFormats() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = Fixtures.url("pngsuite/basn6a08.png").path  // 32x32 with alpha
        let extensions = ["png", "jpg", "webp", "gif", "heic", "avif"]
        for from in extensions {
            let start = directory.appendingPathComponent("start.\(from)").path
            let first = try CommandRunner.run(wi, ["convert", source, start, "--quality", "0.8"])
            #expect(first.status == 0, "\(first.stderr)")
            for to in extensions {
                let output = directory.appendingPathComponent("from-\(from).\(to)").path
                let result = try CommandRunner.run(wi, ["convert", start, output])
                #expect(result.status == 0, "\(from) -> \(to): \(result.stderr)")
                let fields = try info(output)
                #expect(fields["format"] as? String == (to == "jpg" ? "jpeg" : to), "\(from) -> \(to)")
                #expect(fields["width"] as? Int == 32 && fields["height"] as? Int == 32, "\(from) -> \(to)")
            }
        }
    }

    @Test func convertWithThumbnailAndErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("small.png").path
        let result = try CommandRunner.run(
            wi, ["convert", Fixtures.url("png/interlaced-hibiscus.png").path, output, "--thumbnail", "100"])
        #expect(result.status == 0)
        #expect(try info(output)["width"] as? Int == 71)
        #expect(try info(output)["height"] as? Int == 100)
        let corrupt = try CommandRunner.run(wi, ["convert", Fixtures.url("pngsuite/xcsn0g01.png").path, output])
        #expect(corrupt.status == 1)
        #expect(corrupt.stderr == "wi convert: 1001: PNG: IDAT: CRC error\n")
        #expect(try CommandRunner.run(wi, ["convert", "a.png", "b.unknown"]).status == 2)
        #expect(try CommandRunner.run(wi, ["convert", "a.png", "b.png", "--quality", "7"]).status == 2)
    }

    @Test func srgbConvertsWithTheProfileAndDropsIt() throws {
        // A Display P3 JPEG to PNG: with --srgb, tificc's sRGB reference within 45 dB and no iCCP; without, the P3
        // pixels (under 40 dB of it) and the profile kept.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coders = ImageCodersManager(coders: [PNGCoder()])
        let reference = try coders.decode(Fixtures.data("color/p3.ref.png"), options: .init())
        for srgb in [true, false] {
            let output = directory.appendingPathComponent("p3-\(srgb).png").path
            let result = try CommandRunner.run(
                wi, ["convert", Fixtures.url("color/p3.jpg").path, output] + (srgb ? ["--srgb"] : []))
            #expect(result.status == 0, "\(result.stderr)")
            let image = try coders.decode(try Data(contentsOf: URL(fileURLWithPath: output)), options: .init())
            let psnr = try #require(image.pixels.psnr(against: reference.pixels))
            #expect(srgb ? psnr >= 45 : psnr < 40, "--srgb \(srgb): \(psnr) dB")
            #expect((image.metadata.iccProfile == nil) == srgb)
        }
    }

    @Test func cacheStatsClearAndTrim() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try CommandRunner.run(wi, ["cache", "stats", "--cache-dir", directory.path, "--json"])
        #expect(empty.status == 0)
        #expect(empty.stdout == "{\"path\":\"\(directory.path)/images\",\"count\":0,\"bytes\":0}\n")
        var configuration = DiskCache.Configuration()
        configuration.trimInterval = nil
        let cache = try DiskCache(name: "images", root: directory.path, configuration: configuration)
        try cache.store(Data(repeating: 1, count: 1000), forKey: "https://a.com/1.png")
        try cache.store(Data(repeating: 2, count: 234), forKey: "https://a.com/2.png")
        let stats = try CommandRunner.run(wi, ["cache", "stats", "--cache-dir", directory.path, "--json"])
        #expect(stats.stdout == "{\"path\":\"\(directory.path)/images\",\"count\":2,\"bytes\":1234}\n")
        let trim = try CommandRunner.run(wi, ["cache", "trim", "--cache-dir", directory.path, "--json"])
        #expect(trim.status == 0)
        #expect(trim.stdout.contains("\"expired\":0") && trim.stdout.contains("\"count\":2"))
        let clear = try CommandRunner.run(wi, ["cache", "clear", "--cache-dir", directory.path])
        #expect(clear.status == 0)
        let after = try CommandRunner.run(wi, ["cache", "stats", "--cache-dir", directory.path, "--json"])
        #expect(after.stdout == "{\"path\":\"\(directory.path)/images\",\"count\":0,\"bytes\":0}\n")
    }
}
