import Foundation
import Testing
import WICore
import WICoderPNG
import WICoderSVG
import WITestServer
import WITestSupport

/// An SVG reaches no file and no server: external hrefs render nothing. The controls show that the same red PNG,
/// inlined as a data: URL, does paint, so the tests would see a load.
@Suite struct SVGIsolationTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0, alpha: 255)
    static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

    static func redPNG() throws -> Data {
        let pixels = try PixelBuffer(
            width: 8, height: 8, format: .rgba8,
            bytes: Array(repeating: [255, 0, 0, 255], count: 64).flatMap { $0 })
        return try PNGCoder().encode(Image(pixels: pixels), as: .png, options: .init())
    }

    static func document(href: String) -> Data {
        Data(
            """
            <svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='8' height='8'>
            <image width='8' height='8' href='\(href)'/><image width='8' height='8' xlink:href='\(href)'/></svg>
            """.utf8)
    }

    /// The number of pixels of `image` equal to `color`.
    static func count(_ color: RGBAColor, in image: Image) -> Int {
        (0..<image.height).reduce(0) { sum, y in
            sum + (0..<image.width).filter { image.pixels.color(x: $0, y: y) == color }.count
        }
    }

    @Test func aDataURLImagePaints() throws {
        let href = "data:image/png;base64,\(try Self.redPNG().base64EncodedString())"
        let image = try SVGCoder().decode(Self.document(href: href), options: .init())
        #expect(Self.count(Self.red, in: image) == 64)
    }

    @Test func aFileURLImageIsNotLoaded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wi-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("red.png")
        try Self.redPNG().write(to: file)
        #expect(try PNGCoder().decode(Data(contentsOf: file), options: .init()).pixels.color(x: 0, y: 0) == Self.red)
        for href in [file.absoluteString, file.path, "red.png", "file:///etc/passwd"] {
            let image = try SVGCoder().decode(Self.document(href: href), options: .init())
            #expect(Self.count(Self.clear, in: image) == 64, "\(href)")
        }
    }

    @Test func anHTTPImageIsNotRequested() async throws {
        let server = try await TestHTTPServer.start()
        let png = try Self.redPNG()
        server.route("/red.png") { _ in TestResponse(body: png, contentType: "image/png") }
        let href = server.url("/red.png").absoluteString
        let image = try SVGCoder().decode(Self.document(href: href), options: .init())
        let opened = server.connections.opened
        await server.stop()
        #expect(Self.count(Self.clear, in: image) == 64)
        #expect(opened == 0)
    }

    @Test func useAndStylesheetsOfOtherFilesAreNotLoaded() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wi-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let shapes = directory.appendingPathComponent("shapes.svg")
        try Data("<svg xmlns='http://www.w3.org/2000/svg'><rect id='r' width='8' height='8' fill='red'/></svg>".utf8)
            .write(to: shapes)
        let css = directory.appendingPathComponent("red.css")
        try Data("rect { fill: red; }".utf8).write(to: css)
        let data = Data(
            """
            <svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'>
            <style>@import url('\(css.absoluteString)');</style>
            <use href='\(shapes.absoluteString)#r'/><rect width='8' height='8' fill='none'/></svg>
            """.utf8)
        let image = try SVGCoder().decode(data, options: .init())
        #expect(Self.count(Self.red, in: image) == 0)
        #expect(Self.count(Self.clear, in: image) == 64)
    }
}
