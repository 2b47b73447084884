import Testing
import WICore
import WITransform

@Suite(.serialized) struct PixmanResamplerTests {
    @Test func linksAndReportsDebianVersion() {
        #expect(PixmanLibrary.version == "0.42.2")
    }

    @Test func installRegistersItForCoders() throws {
        let previous = ImageResampling.resampler
        defer { ImageResampling.register(previous) }
        PixmanResampler.install()
        #expect(ImageResampling.resampler is PixmanResampler)
        // DecodeOptions.finish, the coders' thumbnail path, now resizes with pixman.
        let board = try TestPixels.buffer(width: 200, height: 100) { x, y in (x + y) % 2 == 0 ? .white : .black }
        let finished = try DecodeOptions(thumbnailPixelSize: PixelSize(width: 20, height: 20)).finish(board, orientation: .up)
        #expect(finished.pixels.size == PixelSize(width: 20, height: 10))
        #expect(finished.pixels == (try PixmanResampler().resample(board, to: PixelSize(width: 20, height: 10))))
    }

    @Test func matchesTheAreaAverageOnWholeFactors() throws {
        let image = try TestPixels.buffer(width: 120, height: 60) { x, y in
            RGBAColor(red: UInt8(x * 2), green: UInt8(y * 4), blue: UInt8((x * y) % 256))
        }
        let size = PixelSize(width: 30, height: 15)
        let pixman = try PixmanResampler().resample(image, to: size)
        let reference = try AreaAverageResampler().resample(image, to: size)
        var largest = 0
        for y in 0..<15 {
            for x in 0..<30 {
                let a = pixman.color(x: x, y: y), b = reference.color(x: x, y: y)
                largest = max(largest, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
                              abs(Int(a.blue) - Int(b.blue)))
            }
        }
        #expect(largest <= 1)
    }

    @Test func sixteenBitGoesToTheAreaAverage() throws {
        let wide = try TestPixels.buffer(width: 40, height: 20, format: .rgba16) { x, _ in
            RGBAColor(red: UInt8(x * 6), green: 3, blue: 200, alpha: 255)
        }
        let size = PixelSize(width: 7, height: 3)
        let output = try PixmanResampler().resample(wide, to: size)
        #expect(output.format == .rgba16)
        #expect(output == (try AreaAverageResampler().resample(wide, to: size)))
    }
}
