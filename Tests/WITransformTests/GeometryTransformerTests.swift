import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Testing
import WICore
import WITransform

@Suite struct GeometryTransformerTests {
    /// A 5x3 blue image with a red pixel at (0, 0).
    func marked() throws -> Image {
        try TestPixels.image(width: 5, height: 3) { x, y in x == 0 && y == 0 ? TestPixels.red : TestPixels.blue }
    }

    func redPixels(_ image: Image) -> [PixelSize] {
        var found: [PixelSize] = []
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels.color(x: x, y: y) == TestPixels.red {
                found.append(PixelSize(width: x, height: y))
            }
        }
        return found
    }

    @Test func flipsKeepTheSizeAndMoveTheMarkedPixel() throws {
        let image = try marked()
        let cases: [(FlipTransformer, PixelSize)] = [
            (FlipTransformer(horizontal: true), PixelSize(width: 4, height: 0)),
            (FlipTransformer(vertical: true), PixelSize(width: 0, height: 2)),
            (FlipTransformer(horizontal: true, vertical: true), PixelSize(width: 4, height: 2)),
            (FlipTransformer(), PixelSize(width: 0, height: 0)),
        ]
        for (flip, position) in cases {
            let output = try flip.transform(image)
            #expect(output.size == image.size, "\(flip.key)")
            #expect(redPixels(output) == [position], "\(flip.key)")
            #expect(Set((0..<5).map { output.pixels.color(x: $0, y: 1) }) == [TestPixels.blue])
        }
    }

    @Test func alphaRoundTripMatchesWICore() throws {
        // Every alpha and colour value: pixman's premultiply and the unpremultiply table round like WICore.
        let image = try TestPixels.image(width: 256, height: 64) { x, y in
            RGBAColor(red: UInt8(255 - x), green: UInt8(y * 4), blue: UInt8(x ^ y), alpha: UInt8(x))
        }
        let twice = try PipelineTransformer([FlipTransformer(horizontal: true), FlipTransformer(horizontal: true)])
            .transform(image)
        #expect(twice.pixels == (try image.pixels.converted(to: .premultipliedRGBA8).converted(to: .rgba8)))
        let premultiplied = Image(pixels: try image.pixels.converted(to: .premultipliedRGBA8))
        #expect(
            try FlipTransformer(vertical: true).transform(FlipTransformer(vertical: true).transform(premultiplied))
                .pixels == premultiplied.pixels)
    }

    @Test func cropCutsExactPixels() throws {
        let image = try TestPixels.image(width: 300, height: 300) { x, y in
            RGBAColor(red: UInt8(x % 256), green: UInt8(y % 256), blue: 7)
        }
        let output = try CropTransformer(x: 50, y: 60, width: 200, height: 200).transform(image)
        #expect(output.size == PixelSize(width: 200, height: 200))
        #expect(output.pixels.color(x: 0, y: 0) == RGBAColor(red: 50, green: 60, blue: 7))
        #expect(output.pixels.color(x: 199, y: 199) == RGBAColor(red: 249, green: 3, blue: 7))
        // A rectangle reaching past the image is clipped to it; one missing it entirely is an error.
        let clipped = try CropTransformer(x: 250, y: -10, width: 100, height: 40).transform(image)
        #expect(clipped.size == PixelSize(width: 50, height: 30))
        #expect(clipped.pixels.color(x: 0, y: 0) == RGBAColor(red: 250, green: 0, blue: 7))
        let error = #expect(throws: ImageError.self) {
            try CropTransformer(x: 300, y: 0, width: 10, height: 10).transform(image)
        }
        #expect(error?.code == .badImageData)
    }

    @Test func cropKeepsTranslucentPixelsAndTheFormatExactly() throws {
        // Straight alpha: a premultiply round trip would turn (201, 77, 3, 9) into (198, 85, 0, 9).
        var bytes: [UInt8] = []
        for alpha in [9, 128, 0, 255] { bytes += [201, 77, 3, UInt8(alpha)] }
        let straight = Image(pixels: try PixelBuffer(width: 4, height: 1, format: .rgba8, bytes: bytes))
        let cut = try CropTransformer(x: 0, y: 0, width: 3, height: 1).transform(straight)
        #expect(cut.pixels.format == .rgba8)
        #expect(cut.pixels.packedBytes() == Array(bytes[0..<12]))
        let wide = Image(
            pixels: try PixelBuffer(
                width: 2, height: 2, format: .rgba16,
                bytes: (0..<32).map { UInt8($0 * 7) }))
        let corner = try CropTransformer(x: 1, y: 1, width: 1, height: 1).transform(wide)
        #expect(corner.pixels.format == .rgba16 && corner.pixels.packedBytes() == (24..<32).map { UInt8($0 * 7) })
    }

    @Test func rotatingFortyFiveDegrees() throws {
        let image = try TestPixels.image(width: 300, height: 300) { _, _ in TestPixels.green }
        let kept = try RotateTransformer(degrees: 45).transform(image)
        #expect(kept.size == PixelSize(width: 300, height: 300))
        #expect(kept.pixels.color(x: 0, y: 0).alpha == 0)  // a corner the turned square leaves empty
        #expect(kept.pixels.color(x: 150, y: 150) == TestPixels.green)
        let fitted = try RotateTransformer(degrees: 45, fitsCanvas: true).transform(image)
        // 300 * (cos 45 + sin 45) = 424.26, rounded to the nearest pixel.
        #expect(fitted.size == PixelSize(width: 424, height: 424))
        #expect(fitted.pixels.color(x: 212, y: 1).alpha > 0)  // the top tip of the diamond is inside
        #expect(fitted.pixels.color(x: 212, y: 212) == TestPixels.green)
        #expect(fitted.pixels.color(x: 0, y: 0).alpha == 0)
    }

    @Test func quarterTurnsAreCounterClockwiseAndExact() throws {
        let image = try marked()  // 5x3, red at top-left
        let left = try RotateTransformer(degrees: 90, fitsCanvas: true).transform(image)
        #expect(left.size == PixelSize(width: 3, height: 5))
        #expect(redPixels(left) == [PixelSize(width: 0, height: 4)])  // top-left turns to bottom-left
        let right = try RotateTransformer(degrees: -90, fitsCanvas: true).transform(image)
        #expect(redPixels(right) == [PixelSize(width: 2, height: 0)])
        let half = try RotateTransformer(degrees: 180).transform(image)
        #expect(half.size == image.size)
        #expect(redPixels(half) == [PixelSize(width: 4, height: 2)])
        #expect(half.pixels.color(x: 0, y: 0) == TestPixels.blue)
    }

    @Test func roundedCornersOfACrop() throws {
        let image = try TestPixels.image(width: 300, height: 300) { _, _ in TestPixels.blue }
        let crop = try CropTransformer(x: 50, y: 50, width: 200, height: 200).transform(image)
        let output = try RoundCornerTransformer(radius: 40).transform(crop)
        #expect(output.size == PixelSize(width: 200, height: 200))
        for (x, y) in [(0, 0), (199, 0), (0, 199), (199, 199), (5, 5)] {
            #expect(output.pixels.color(x: x, y: y).alpha == 0, "(\(x), \(y))")
        }
        for (x, y) in [(100, 100), (0, 100), (100, 0), (40, 1), (20, 20)] {
            #expect(output.pixels.color(x: x, y: y) == TestPixels.blue, "(\(x), \(y))")
        }
        // The arc is antialiased: somewhere along the diagonal alpha is between 0 and 255.
        let diagonal = (0..<40).map { Int(output.pixels.color(x: $0, y: $0).alpha) }
        #expect(diagonal.contains { $0 > 0 && $0 < 255 })
        // Only the chosen corners are rounded.
        let one = try RoundCornerTransformer(radius: 40, corners: .bottomRight).transform(crop)
        #expect(one.pixels.color(x: 0, y: 0) == TestPixels.blue)
        #expect(one.pixels.color(x: 199, y: 199).alpha == 0)
    }

    @Test func borderColourOnTheEdges() throws {
        let image = try TestPixels.image(width: 100, height: 100) { _, _ in TestPixels.blue }
        let output = try RoundCornerTransformer(radius: 20, borderWidth: 4, borderColor: TestPixels.red).transform(
            image)
        #expect(TestPixels.row(output.pixels, 50, \.red).prefix(6) == [255, 255, 255, 255, 0, 0])
        #expect(output.pixels.color(x: 0, y: 50) == TestPixels.red)
        #expect(output.pixels.color(x: 99, y: 50) == TestPixels.red)
        #expect(output.pixels.color(x: 50, y: 0) == TestPixels.red)
        #expect(output.pixels.color(x: 4, y: 50) == TestPixels.blue)
        #expect(output.pixels.color(x: 50, y: 50) == TestPixels.blue)
        #expect(output.pixels.color(x: 0, y: 0).alpha == 0)
    }

    /// SDWebImage's `test03UIImageTransformRoundedCornerCG` (300x300, radius 50, a 1-pixel black border) finds the
    /// border at x = 1: Core Graphics clips the image one border width in and strokes the border's centre line
    /// 1.5 pixels in, so column 0 stays transparent. Ours draws the border on the outermost pixels, with nothing
    /// transparent outside it along the straight edges (decision 0082).
    @Test func aOnePixelBorderIsTheOutermostColumn() throws {
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        let image = try TestPixels.image(width: 300, height: 300) { _, _ in TestPixels.blue }
        let output = try RoundCornerTransformer(radius: 50, borderWidth: 1, borderColor: black).transform(image)
        #expect(output.size == PixelSize(width: 300, height: 300))
        #expect(output.pixels.color(x: 0, y: 0).alpha == 0)  // SD: clear at (0, 0) too
        #expect(output.pixels.color(x: 0, y: 150) == black)  // SD: clear
        #expect(output.pixels.color(x: 1, y: 150) == TestPixels.blue)  // SD: the border
        #expect(output.pixels.color(x: 299, y: 150) == black)
        #expect(output.pixels.color(x: 150, y: 0) == black)
        #expect(output.pixels.color(x: 150, y: 20) == TestPixels.blue)  // not turned upside down (SD's last check)
    }
}

/// `CornerFillTransformer` beyond thumbor's table (ServeColorFilterTests holds its bytes): the key, a zero radius,
/// refused radii, straight output from a premultiplied frame, and every frame filled.
extension GeometryTransformerTests {
    @Test func cornerFillKeysRefusalsAndFrames() throws {
        let red = RGBAColor(red: 255, green: 0, blue: 0)
        #expect(
            try CornerFillTransformer(horizontalRadius: 8, verticalRadius: 4, color: red).key
                == "CornerFill(8,4,#ff0000ff,opaque)")
        #expect(
            try CornerFillTransformer(horizontalRadius: 3, verticalRadius: 3, color: red, transparent: true).key
                == "CornerFill(3,3,#ff0000ff,transparent)")
        #expect(throws: ImageError.self) {
            try CornerFillTransformer(horizontalRadius: -1, verticalRadius: 4, color: red)
        }
        let white = try PixelBuffer(width: 8, height: 6, format: .rgba8, bytes: [UInt8](repeating: 255, count: 192))
        let unchanged = try CornerFillTransformer(horizontalRadius: 0, verticalRadius: 3, color: red)
            .transform(Image(pixels: white))
        #expect(unchanged.pixels.packedBytes() == white.packedBytes())
        let frames = [ImageFrame(pixels: white, duration: 0.1), ImageFrame(pixels: white, duration: 0.2)]
        let filled = try CornerFillTransformer(horizontalRadius: 3, verticalRadius: 3, color: red)
            .transform(Image(frames: frames, format: .gif))
        #expect(filled.frameCount == 2)
        for index in 0..<2 {
            let pixels = try filled.frame(at: index).pixels
            #expect(pixels.color(x: 0, y: 0) == red && pixels.color(x: 4, y: 3) == .white)
        }
        let premultiplied = try white.converted(to: .premultipliedRGBA8)
        let straight = try CornerFillTransformer(horizontalRadius: 3, verticalRadius: 3, color: red)
            .transform(Image(pixels: premultiplied)).pixels
        #expect(straight.format == .rgba8 && straight.color(x: 0, y: 0) == red)
    }
}

/// Inside a cancelled pool job these stop with `.cancelled` instead of finishing: the orientation by its own check
/// (every 64 rows), the two transformers by the per-frame one before their row checks (every 16 rows).
extension GeometryTransformerTests {
    /// `work`'s result when it runs in a pool job cancelled before it starts.
    private static func inACancelledJob(_ work: @escaping @Sendable () throws(ImageError) -> Void) async
        -> Result<Void, ImageError>
    {
        let pool = WorkerPool(name: "cancel-test", threads: 1)
        defer { pool.shutdown() }
        let started = Atomic<Bool>(false)
        let proceed = Atomic<Bool>(false)
        let job = Task {
            await pool.cancellableResult { () throws(ImageError) -> Void in
                started.store(true, ordering: .sequentiallyConsistent)
                while !proceed.load(ordering: .sequentiallyConsistent) { sched_yield() }
                try work()
            }
        }
        while !started.load(ordering: .sequentiallyConsistent) { await Task.yield() }
        job.cancel()
        proceed.store(true, ordering: .sequentiallyConsistent)
        return await job.value
    }

    @Test func cornerFillEqualizeAndOrientationStopWhenCancelled() async throws {
        let pixels = try PixelBuffer(width: 300, height: 200, format: .rgba8)
        let image = Image(pixels: pixels)
        let cases: [(String, @Sendable () throws(ImageError) -> Void)] = [
            (
                "corner fill",
                { () throws(ImageError) in
                    _ = try CornerFillTransformer(horizontalRadius: 90, verticalRadius: 90, color: .white).transform(
                        image)
                }
            ),
            ("equalize", { () throws(ImageError) in _ = try EqualizeTransformer().transform(image) }),
            ("orientation", { () throws(ImageError) in _ = try pixels.applying(.right) }),
        ]
        for (name, work) in cases {
            let result = await Self.inACancelledJob(work)
            if case .failure(let error) = result {
                #expect(error.code == .cancelled, "\(name)")
            } else {
                Issue.record("\(name) finished in a cancelled job")
            }
        }
    }
}
