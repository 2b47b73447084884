import Testing
import WebImage
import WITestSupport

/// AttentionCropTransformer on real photos, against the windows libvips 8.18's `smartcrop(interesting=attention)`
/// picks (Tests/Fixtures/attention-reference.tsv, written by make-attention-reference.py).
@Suite struct AttentionCropPhotoTests {
    struct Row {
        let file: String
        let crop: PixelSize
        let scaled: PixelSize
        let x: Int
        let y: Int
    }

    static func libvipsRows() -> [Row] {
        String(decoding: Fixtures.data("attention-reference.tsv"), as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let fields = line.split(separator: "\t").map(String.init)
                func size(_ text: String) -> PixelSize {
                    let sides = text.split(separator: "x").compactMap { Int($0) }
                    return PixelSize(width: sides[0], height: sides[1])
                }
                return Row(
                    file: fields[0], crop: size(fields[1]), scaled: size(fields[2]), x: Int(fields[3]) ?? -1,
                    y: Int(fields[4]) ?? -1)
            }
    }

    /// Intersection over union of two windows of the same size in the same scaled image.
    static func overlap(_ a: (x: Int, y: Int), _ b: (x: Int, y: Int), size: PixelSize) -> Double {
        let width = max(0, size.width - abs(a.x - b.x))
        let height = max(0, size.height - abs(a.y - b.y))
        let intersection = Double(width * height)
        return intersection / (2 * Double(size.area) - intersection)
    }

    /// Our windows (x, y in the scaled image), in the order of the reference table's rows.
    static let ours: [(Int, Int)] = [
        (64, 0), (0, 44), (140, 0),  // anemone: 128x128, 256x64, 96x160
        (5, 0), (0, 64), (20, 0),  // fire
        (30, 0), (0, 0), (45, 0),  // fjord
        (0, 0), (0, 0), (0, 0),  // kayak
    ]

    /// The overlap with libvips' window: at least 0.45 on 11 of the 12 rows and 0.70 on average. The one row
    /// below is fjord at 256x64 (a strip a third of the height): libvips centres the window on the single
    /// strongest point of its blurred map (the foreground rocks, at the bottom), while we take the strip holding
    /// the most attention in total (clouds and ridges, at the top). Measured: IoU 1.0 on 5 rows, 0.48 to 0.90 on
    /// 6, 0 on that one; mean 0.72.
    @Test func windowsOnPhotosAgainstLibvips() throws {
        let coders = WebImage.makeCoders()
        let rows = Self.libvipsRows()
        #expect(rows.count == Self.ours.count)
        var overlaps: [Double] = []
        for (row, ours) in zip(rows, Self.ours) {
            let image = try coders.decode(Fixtures.data(row.file), options: .init())
            let transformer = try AttentionCropTransformer(width: row.crop.width, height: row.crop.height)
            let placement = try transformer.placement(for: image)
            #expect(placement.scaledSize == row.scaled, "\(row.file) \(row.crop)")
            #expect((placement.x, placement.y) == ours, "\(row.file) \(row.crop)")
            overlaps.append(Self.overlap((placement.x, placement.y), (row.x, row.y), size: row.crop))
            // The output is that window of the image scaled as ResizeTransformer does.
            let output = try transformer.transform(image)
            #expect(output.size == row.crop)
        }
        #expect(overlaps.filter { $0 >= 0.45 }.count >= 11, "\(overlaps)")
        #expect(overlaps.reduce(0, +) / Double(overlaps.count) >= 0.70, "\(overlaps)")
    }
}
