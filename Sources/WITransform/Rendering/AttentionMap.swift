import WICore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where the eye goes in an image: a score per pixel of a small copy, and the crop window that holds the most.
///
/// The score is libvips' `interesting=attention` recipe (itself from smartcrop.js), on a copy whose long side is
/// `analysisSide` pixels, in CIE XYZ (Y on 0...100) from linear sRGB:
/// - edges: 5 x |4-neighbour Laplacian of Y|;
/// - skin: 100 x (1 - distance of the normalised XYZ colour from the skin direction (0.78, 0.57, 0.44)), at least 0;
/// - saturation: CIELAB chroma (D65), where libvips takes a* alone (reds count, greens subtract, blues are
///   ignored); chroma counts every hue alike;
/// skin and saturation only where Y > 5 (dark areas give no colour evidence). Transparent pixels count as black.
/// libvips squeezes the image to 32x32 whatever its shape; the copy here keeps the aspect ratio.
///
/// libvips blurs that map and centres the crop on its maximum; we sum it over every candidate window with a
/// summed-area table instead, each pixel weighted 1 at the window's centre falling to 1/2 at the middle of its
/// sides (1 - ((dx/halfWidth)^2 + (dy/halfHeight)^2) / 2, from five tables: the sum and the first and second
/// moments along x and y), so the window that holds the most is chosen and, among windows holding the same thing,
/// the one that centres it. Ties go to the candidate nearest the centre; a map with no score at all gives the
/// centre crop. Every step is integer or IEEE double arithmetic in a fixed order, so the result is deterministic.
enum AttentionMap {
    /// The long side of the analysis copy in pixels: it sets how finely the window is placed (1/64 of the long side).
    static let analysisSide = 64

    /// The top-left corner of the `crop`-sized window within `source` scaled to `scaled`, which covers `crop`.
    static func window(in source: PixelBuffer, scaled: PixelSize, crop: PixelSize) throws(ImageError)
        -> (x: Int, y: Int)
    {
        let centre = ((scaled.width - crop.width) / 2, (scaled.height - crop.height) / 2)
        guard scaled != crop else { return centre }
        let factor = min(1, Double(analysisSide) / Double(max(source.width, source.height)))
        let small = PixelSize(
            width: max(1, Int((Double(source.width) * factor).rounded())),
            height: max(1, Int((Double(source.height) * factor).rounded())))
        let copy = try Resampling.resized(try WorkingPixels.premultiplied(source), to: small)
        let map = scores(copy)
        // The window in analysis pixels, and the candidate offsets along each axis.
        let windowWidth = min(
            small.width,
            max(
                1,
                Int(
                    (Double(crop.width * small.width) / Double(scaled.width))
                        .rounded())))
        let windowHeight = min(
            small.height,
            max(
                1,
                Int(
                    (Double(crop.height * small.height) / Double(scaled.height))
                        .rounded())))
        guard let best = bestWindow(map, size: small, window: (windowWidth, windowHeight)) else { return centre }
        // Back to scaled pixels through the window's centre.
        func place(_ offset: Int, _ window: Int, _ analysis: Int, _ scaledSide: Int, _ cropSide: Int) -> Int {
            let middle = (Double(offset) + Double(window) / 2) * Double(scaledSide) / Double(analysis)
            return min(max(0, Int((middle - Double(cropSide) / 2).rounded())), scaledSide - cropSide)
        }
        return (
            place(best.x, windowWidth, small.width, scaled.width, crop.width),
            place(best.y, windowHeight, small.height, scaled.height, crop.height)
        )
    }

    /// The attention score of every pixel of premultiplied RGBA8 `buffer`, row by row.
    static func scores(_ buffer: PixelBuffer) -> [Double] {
        let width = buffer.width
        let height = buffer.height
        var xyz = [Double](repeating: 0, count: width * height * 3)
        buffer.withUnsafeBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    let pixel = y * buffer.bytesPerRow + x * 4
                    let r = linear[Int(bytes[pixel])]
                    let g = linear[Int(bytes[pixel + 1])]
                    let b = linear[Int(bytes[pixel + 2])]
                    let index = (y * width + x) * 3
                    xyz[index] = 100 * (0.4124 * r + 0.3576 * g + 0.1805 * b)
                    xyz[index + 1] = 100 * (0.2126 * r + 0.7152 * g + 0.0722 * b)
                    xyz[index + 2] = 100 * (0.0193 * r + 0.1192 * g + 0.9505 * b)
                }
            }
        }
        var map = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let index = y * width + x
                func luma(_ px: Int, _ py: Int) -> Double {
                    xyz[(min(max(py, 0), height - 1) * width + min(max(px, 0), width - 1)) * 3 + 1]
                }
                let lum = xyz[index * 3 + 1]
                let laplacian = 4 * lum - luma(x - 1, y) - luma(x + 1, y) - luma(x, y - 1) - luma(x, y + 1)
                var score = 5 * abs(laplacian)
                if lum > 5 {
                    score +=
                        skin(xyz[index * 3], lum, xyz[index * 3 + 2]) + chroma(xyz[index * 3], lum, xyz[index * 3 + 2])
                }
                map[index] = score
            }
        }
        return map
    }

    /// 100 at the skin direction, falling linearly with the distance of the normalised colour from it, at least 0.
    static func skin(_ x: Double, _ y: Double, _ z: Double) -> Double {
        let length = (x * x + y * y + z * z).squareRoot()
        let dx = x / length - 0.78
        let dy = y / length - 0.57
        let dz = z / length - 0.44
        return max(0, 100 - 100 * (dx * dx + dy * dy + dz * dz).squareRoot())
    }

    /// CIELAB chroma (a*, b* against the D65 white) of an XYZ colour on the 0...100 scale.
    static func chroma(_ x: Double, _ y: Double, _ z: Double) -> Double {
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x / 95.047)
        let fy = f(y / 100)
        let fz = f(z / 108.883)
        let a = 500 * (fx - fy)
        let b = 200 * (fy - fz)
        return (a * a + b * b).squareRoot()
    }

    /// sRGB byte -> linear light in 0...1.
    private static let linear: [Double] = (0..<256).map { value in
        let c = Double(value) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// The top-left corner (in map pixels) of the `window`-sized rectangle with the highest centre-weighted score;
    /// nil when the map scores nothing anywhere.
    static func bestWindow(_ map: [Double], size: PixelSize, window: (width: Int, height: Int)) -> (x: Int, y: Int)? {
        let tables = MomentTables(map, size: size)
        guard tables.sum(0, 0, size.width, size.height) > 0 else { return nil }
        let halfWidth = Double(window.width) / 2
        let halfHeight = Double(window.height) / 2
        var best: (x: Int, y: Int)? = nil
        var bestScore = -Double.infinity
        for y in centreFirst(size.height - window.height) {
            for x in centreFirst(size.width - window.width) {
                let moments = tables.moments(x, y, x + window.width, y + window.height)
                let cx = Double(x) + halfWidth
                let cy = Double(y) + halfHeight
                let spreadX = moments.xx - 2 * cx * moments.x + cx * cx * moments.sum
                let spreadY = moments.yy - 2 * cy * moments.y + cy * cy * moments.sum
                let score = moments.sum - (spreadX / (halfWidth * halfWidth) + spreadY / (halfHeight * halfHeight)) / 2
                if best == nil || score > bestScore + 1e-9 * abs(bestScore) {
                    (best, bestScore) = ((x, y), score)
                }
            }
        }
        return best
    }

    /// 0...`last` in the order middle, middle - 1, middle + 1, middle - 2, ... (ties go to the earliest).
    static func centreFirst(_ last: Int) -> [Int] {
        let middle = last / 2
        var order = [middle]
        for step in 1...max(1, last) {
            if middle - step >= 0 { order.append(middle - step) }
            if middle + step <= last { order.append(middle + step) }
        }
        return order
    }
}

/// Summed-area tables of a score map and of its first and second moments along x and y (pixel centres at +0.5),
/// so any rectangle's sums come from four lookups each.
struct MomentTables {
    private let stride: Int
    private var tables: [[Double]]

    init(_ map: [Double], size: PixelSize) {
        stride = size.width + 1
        tables = Array(repeating: [Double](repeating: 0, count: stride * (size.height + 1)), count: 5)
        for y in 0..<size.height {
            var row = [Double](repeating: 0, count: 5)
            let cy = Double(y) + 0.5
            for x in 0..<size.width {
                let value = map[y * size.width + x]
                let cx = Double(x) + 0.5
                let terms = [value, value * cx, value * cx * cx, value * cy, value * cy * cy]
                let at = (y + 1) * stride + x + 1
                for table in 0..<5 {
                    row[table] += terms[table]
                    tables[table][at] = tables[table][at - stride] + row[table]
                }
            }
        }
    }

    /// The sum of table `table` over columns `left..<right` and rows `top..<bottom`.
    private func rectangle(_ table: Int, _ left: Int, _ top: Int, _ right: Int, _ bottom: Int) -> Double {
        let t = tables[table]
        return t[bottom * stride + right] - t[top * stride + right] - t[bottom * stride + left] + t[top * stride + left]
    }

    func sum(_ left: Int, _ top: Int, _ right: Int, _ bottom: Int) -> Double {
        rectangle(0, left, top, right, bottom)
    }

    /// The sum and the x, x^2, y, y^2 moments of the map over a rectangle.
    func moments(_ left: Int, _ top: Int, _ right: Int, _ bottom: Int)
        -> (sum: Double, x: Double, xx: Double, y: Double, yy: Double)
    {
        (
            rectangle(0, left, top, right, bottom), rectangle(1, left, top, right, bottom),
            rectangle(2, left, top, right, bottom), rectangle(3, left, top, right, bottom),
            rectangle(4, left, top, right, bottom)
        )
    }
}
