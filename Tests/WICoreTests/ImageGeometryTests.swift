import Testing
import WICore

@Suite struct ImageGeometryTests {
    @Test func fitKeepsAspectAndNeverUpscales() {
        let big = PixelSize(width: 5250, height: 3450)
        #expect(
            ImageCoding.Geometry.scaledSize(of: big, toFit: .init(width: 400, height: 300))
                == .init(width: 400, height: 263))
        #expect(
            ImageCoding.Geometry.scaledSize(of: .init(width: 100, height: 50), toFit: .init(width: 400, height: 300))
                == .init(width: 100, height: 50))
        #expect(
            ImageCoding.Geometry.scaledSize(of: .init(width: 3000, height: 4000), toFit: .init(width: 256, height: 256))
                == .init(width: 192, height: 256))
        #expect(
            ImageCoding.Geometry.scaledSize(of: .init(width: 1000, height: 1), toFit: .init(width: 10, height: 10))
                == .init(width: 10, height: 1))
        // A zero dimension leaves that side free.
        #expect(
            ImageCoding.Geometry.scaledSize(of: big, toFit: .init(width: 0, height: 345))
                == .init(width: 525, height: 345))
    }

    @Test func withoutAspectEachSideIsClampedToTheBox() {
        let big = PixelSize(width: 5250, height: 3450)
        #expect(
            ImageCoding.Geometry.scaledSize(of: big, toFit: .init(width: 400, height: 300), preserveAspectRatio: false)
                == .init(width: 400, height: 300))
        // The side the box would enlarge keeps the source's length; the other is the box's.
        #expect(
            ImageCoding.Geometry.scaledSize(
                of: .init(width: 300, height: 100), toFit: .init(width: 200, height: 200),
                preserveAspectRatio: false) == .init(width: 200, height: 100))
    }

    /// SDWebImage's `test24ThatScaleSizeCalculation`, the cases without scaling up (ours never scales up).
    @Test func sdWebImageScaleSizeCalculation() {
        func scaled(_ w: Int, _ h: Int, into bw: Int, _ bh: Int, keep: Bool) -> PixelSize {
            ImageCoding.Geometry.scaledSize(
                of: .init(width: w, height: h), toFit: .init(width: bw, height: bh), preserveAspectRatio: keep)
        }
        #expect(scaled(100, 200, into: 150, 150, keep: true) == .init(width: 75, height: 150))  // size1
        #expect(scaled(100, 200, into: 300, 300, keep: true) == .init(width: 100, height: 200))  // size3
        #expect(scaled(100, 200, into: 150, 150, keep: false) == .init(width: 100, height: 150))  // size5
        #expect(scaled(0, 0, into: 999, 999, keep: false) == .init(width: 0, height: 0))  // size7
        #expect(scaled(999, 999, into: 0, 0, keep: false) == .init(width: 999, height: 999))  // size8
    }

    @Test func byteLimit() {
        let size = ImageCoding.Geometry.scaledSize(of: .init(width: 4000, height: 3000), limitBytes: 1_000_000)
        #expect(size == .init(width: 577, height: 433))
        #expect(size.area * 4 <= 1_000_000)
        #expect(
            ImageCoding.Geometry.scaledSize(of: .init(width: 100, height: 100), limitBytes: 1)
                == .init(width: 1, height: 1))
        #expect(
            ImageCoding.Geometry.scaledSize(of: .init(width: 10, height: 10), limitBytes: 400)
                == .init(width: 10, height: 10))
    }

    @Test func decodeOptionsTargetSizeAndLimitOrder() throws {
        var options = DecodeOptions(thumbnailPixelSize: .init(width: 100, height: 100))
        #expect(options.targetSize(for: .init(width: 400, height: 200)) == .init(width: 100, height: 50))
        options.scaleDownLimitBytes = 400  // wins over the thumbnail size
        #expect(options.targetSize(for: .init(width: 400, height: 200)) == .init(width: 14, height: 7))
        #expect(options.targetSize(for: .init(width: 10, height: 10)) == nil)
        let limited = DecodeOptions(pixelLimit: 1000)
        #expect(throws: Never.self) { try limited.checkPixelLimit(.init(width: 10, height: 100)) }
        let error = #expect(throws: ImageError.self) {
            try limited.checkPixelLimit(.init(width: 10, height: 10), frames: 11)
        }
        #expect(error?.code == .pixelLimitExceeded)
    }
}
