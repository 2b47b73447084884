import Testing
import WICore
import WITransform

@Suite struct PixmanResamplerTests {
    @Test func linksAndReportsDebianVersion() {
        #expect(PixmanLibrary.version == "0.42.2")
    }

    @Test func decodeOptionsCarryItToTheThumbnailPath() throws {
        // DecodeOptions.finish, the coders' thumbnail path, resizes with the options' resampler: pixman when they
        // name it, WICore's area average when they name none. Nothing process-wide changes.
        // A factor of 4.29 on busy pixels, where pixman's fixed-point weights round differently from the area average.
        let board = try TestPixels.buffer(width: 300, height: 150) { x, y in
            RGBAColor(red: UInt8((x * 7 + y * 3) % 256), green: UInt8((x * y) % 256), blue: UInt8((x ^ y) % 256))
        }
        let size = PixelSize(width: 70, height: 35)
        let pixman = try PixmanResampler().resample(board, to: size)
        let areaAverage = try ImageCoding.AreaAverageResampler().resample(board, to: size)
        #expect(pixman != areaAverage)
        let box = PixelSize(width: 70, height: 70)
        let withPixman = try DecodeOptions(thumbnailPixelSize: box, resampler: PixmanResampler()).finish(
            board, orientation: .up)
        #expect(withPixman.pixels == pixman)
        #expect(try DecodeOptions(thumbnailPixelSize: box).finish(board, orientation: .up).pixels == areaAverage)
        #expect(DecodeOptions(resampler: PixmanResampler()) != DecodeOptions())
        #expect(DecodeOptions(resampler: PixmanResampler()) == DecodeOptions(resampler: PixmanResampler()))
    }

    @Test func matchesTheAreaAverageOnWholeFactors() throws {
        let image = try TestPixels.buffer(width: 120, height: 60) { x, y in
            RGBAColor(red: UInt8(x * 2), green: UInt8(y * 4), blue: UInt8((x * y) % 256))
        }
        let size = PixelSize(width: 30, height: 15)
        let pixman = try PixmanResampler().resample(image, to: size)
        let reference = try ImageCoding.AreaAverageResampler().resample(image, to: size)
        var largest = 0
        for y in 0..<15 {
            for x in 0..<30 {
                let a = pixman.color(x: x, y: y)
                let b = reference.color(x: x, y: y)
                largest = max(
                    largest, abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)),
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
        #expect(output == (try ImageCoding.AreaAverageResampler().resample(wide, to: size)))
    }

    @Test func sidesBeyondPixmansReach() throws {
        // pixman places pixels in 16.16 fixed point: 32767 a side at most. The resampler falls back to the area
        // average; a transformer refuses with a typed error.
        let strip = try TestPixels.buffer(width: 40_000, height: 1) { x, _ in x < 20_000 ? .black : .white }
        let reduced = try PixmanResampler().resample(strip, to: PixelSize(width: 4, height: 1))
        #expect(TestPixels.row(reduced, 0, \.red) == [0, 0, 255, 255])
        let error = #expect(throws: ImageError.self) {
            try FlipTransformer(horizontal: true).transform(Image(pixels: strip))
        }
        #expect(error?.code == .pixelLimitExceeded)
    }

    @Test func extremeReductionsStayExact() throws {
        // Past 1024x pixman's fixed point runs out and the area average takes over; below, fewer filter phases keep
        // its weight table small.
        let strip = try TestPixels.buffer(width: 20_000, height: 2) { x, _ in x % 2 == 0 ? .white : .black }
        let one = try PixmanResampler().resample(strip, to: PixelSize(width: 1, height: 1))
        #expect((127...128).contains(one.color(x: 0, y: 0).red))
        let fitted = try ResizeTransformer(width: 4, height: 4, mode: .aspectFit).transform(Image(pixels: strip))
        #expect(TestPixels.row(fitted.pixels, 1, \.alpha) == [255, 255, 255, 255])
        #expect(TestPixels.row(fitted.pixels, 0, \.alpha) == [0, 0, 0, 0])
        #expect(TestPixels.row(fitted.pixels, 1, \.red).allSatisfy { (127...128).contains($0) })
        let wide = try PixmanResampler().resample(strip, to: PixelSize(width: 20, height: 1))  // 1000x: pixman
        #expect(TestPixels.row(wide, 0, \.red).allSatisfy { (126...130).contains($0) })
        let blurred = try BlurTransformer(radius: 1_000_000).transform(Image(pixels: strip))
        #expect(blurred.size == PixelSize(width: 20_000, height: 2))
    }
}
