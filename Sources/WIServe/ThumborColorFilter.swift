import WICore

/// thumbor's colour filters, pixel for pixel, on straight RGBA8 with alpha left alone: `brightness`, `contrast`,
/// `rgb`, `colorize` and `saturation` as thumbor's extension modules compute them (integer steps truncated toward zero, then
/// clamped; saturation in single precision), and `grayscale` as thumbor's Pillow engine does it (`convert("L")`,
/// or `"LA"` with alpha: ITU-R 601 luma in 16-bit fixed point, rounded). Checked byte for byte against thumbor 7.8
/// (Tests/Fixtures/serve-color).
///
/// Thread safety: an immutable value; safe from any thread.
struct ThumborColorFilter: Sendable {
    private enum Operation: Sendable {
        /// One table per channel: brightness, contrast and rgb map each value on its own.
        case tables([UInt8], [UInt8], [UInt8])
        /// Towards or away from the pixel's perceived brightness, by `change` (1: unchanged).
        case saturation(change: Float)
        case grayscale
    }

    private let operation: Operation

    /// The colour filter `filter` names, or nil when it is not one.
    init?(_ filter: ThumborFilter) {
        switch filter {
        case .brightness(let amount):
            let table = Self.table { $0 + 255 * amount / 100 }
            operation = .tables(table, table, table)
        case .contrast(let amount):
            let factor = (amount + 100) * (amount + 100) / 100
            let table = Self.table { factor * ($0 - 128) / 100 + 128 }
            operation = .tables(table, table, table)
        case .rgb(let red, let green, let blue):
            operation = .tables(Self.table { $0 + 255 * red / 100 }, Self.table { $0 + 255 * green / 100 },
                                Self.table { $0 + 255 * blue / 100 })
        case .colorize(let red, let green, let blue, let fill):
            func toward(_ target: UInt8, by percent: Int) -> [UInt8] {
                // thumbor: (value x (100 - p) + fill x p) / 100.0 in double precision, truncated, clamped.
                Self.table { value in
                    Int(((Double(value) * (100.0 - Double(percent)) + Double(target) * Double(percent)) / 100.0)
                        .rounded(.towardZero))
                }
            }
            operation = .tables(toward(fill.red, by: red), toward(fill.green, by: green), toward(fill.blue, by: blue))
        case .curve(let all, let red, let green, let blue):
            let overall = Self.spline(all)
            func composed(_ points: [ThumborCurvePoint]) -> [UInt8] { Self.spline(points).map { overall[Int($0)] } }
            operation = .tables(composed(red), composed(green), composed(blue))
        case .saturation(let change):
            operation = .saturation(change: Float(change))
        case .grayscale:
            operation = .grayscale
        default:
            return nil
        }
    }

    /// Every frame of `image`, filtered.
    func apply(to image: Image) throws(ImageError) -> Image {
        try image.mappingFrames { (pixels) throws(ImageError) in try apply(to: pixels) }
    }

    /// `pixels` (any format, converted to straight RGBA8) filtered.
    func apply(to pixels: PixelBuffer) throws(ImageError) -> PixelBuffer {
        var bytes = try pixels.converted(to: .rgba8).packedBytes()
        bytes.withUnsafeMutableBufferPointer { buffer in
            switch operation {
            case .tables(let red, let green, let blue):
                for index in stride(from: 0, to: buffer.count, by: 4) {
                    buffer[index] = red[Int(buffer[index])]
                    buffer[index + 1] = green[Int(buffer[index + 1])]
                    buffer[index + 2] = blue[Int(buffer[index + 2])]
                }
            case .saturation(let change):
                for index in stride(from: 0, to: buffer.count, by: 4) {
                    let red = Int(buffer[index]), green = Int(buffer[index + 1]), blue = Int(buffer[index + 2])
                    // As thumbor: the squares weighted in double precision, the root kept as a float.
                    let weighted = Double(red * red) * 0.299 + Double(green * green) * 0.587 + Double(blue * blue) * 0.114
                    let brightness = Float(weighted.squareRoot())
                    buffer[index] = Self.saturated(red, brightness, change)
                    buffer[index + 1] = Self.saturated(green, brightness, change)
                    buffer[index + 2] = Self.saturated(blue, brightness, change)
                }
            case .grayscale:
                for index in stride(from: 0, to: buffer.count, by: 4) {
                    let luma = (Int(buffer[index]) * 19_595 + Int(buffer[index + 1]) * 38_470
                        + Int(buffer[index + 2]) * 7_471 + 0x8000) >> 16
                    buffer[index] = UInt8(luma)
                    buffer[index + 1] = UInt8(luma)
                    buffer[index + 2] = UInt8(luma)
                }
            }
        }
        return try PixelBuffer(width: pixels.width, height: pixels.height, format: .rgba8, bytes: bytes)
    }

    /// The 256 results of `map` (Swift's integer division truncates toward zero, as C's does), clamped to a byte.
    private static func table(_ map: (Int) -> Int) -> [UInt8] {
        (0...255).map { clamped(map($0)) }
    }

    /// The 256 values of the natural cubic spline through `points` (x strictly rising), as thumbor's `_curve`
    /// evaluates it: second derivatives from the tridiagonal system (zero at both ends) by forward elimination and
    /// back substitution, each segment's cubic rounded half away from zero and clamped; below the first point the
    /// first y, from the last point on the last y.
    static func spline(_ points: [ThumborCurvePoint]) -> [UInt8] {
        let count = points.count
        var lower = [Double](repeating: 0, count: count), diagonal = lower, upper = lower, right = lower
        diagonal[0] = 1
        for i in 1..<max(1, count - 1) {
            let (previous, current, next) = (points[i - 1], points[i], points[i + 1])
            lower[i] = Double(current.x - previous.x) / 6
            diagonal[i] = Double(next.x - previous.x) / 3
            upper[i] = Double(next.x - current.x) / 6
            right[i] = Double(next.y - current.y) / Double(next.x - current.x)
                - Double(current.y - previous.y) / Double(current.x - previous.x)
        }
        diagonal[count - 1] = 1
        for i in stride(from: 1, to: count, by: 1) {
            let factor = lower[i] / diagonal[i - 1]
            diagonal[i] -= factor * upper[i - 1]
            lower[i] = 0
            right[i] -= factor * right[i - 1]
        }
        for i in stride(from: count - 2, through: 0, by: -1) {
            let factor = upper[i] / diagonal[i + 1]
            diagonal[i] -= factor * lower[i + 1]
            upper[i] = 0
            right[i] -= factor * right[i + 1]
        }
        let second = (0..<count).map { right[$0] / diagonal[$0] }
        var table = [UInt8](repeating: UInt8(points[0].y), count: 256)
        for i in 0..<(count - 1) {
            let (start, end) = (points[i], points[i + 1])
            let width = Double(end.x - start.x)
            for x in start.x..<end.x {
                let b = Double(x - start.x) / width, a = 1 - b
                let y = a * Double(start.y) + b * Double(end.y)
                    + (width * width / 6) * ((a * a * a - a) * second[i] + (b * b * b - b) * second[i + 1])
                table[x] = UInt8(min(max(y.rounded(), 0), 255))
            }
        }
        for x in points[count - 1].x...255 { table[x] = UInt8(points[count - 1].y) }
        return table
    }

    /// thumbor's `p + (value - p) * change` in single precision, truncated toward zero, clamped to a byte. Finite
    /// for every value: `change` is within -100...100 and `p` within 0...255.
    @inline(__always)
    private static func saturated(_ value: Int, _ brightness: Float, _ change: Float) -> UInt8 {
        let result = brightness + (Float(value) - brightness) * change
        return clamped(Int(result.rounded(.towardZero)))
    }

    @inline(__always)
    private static func clamped(_ value: Int) -> UInt8 {
        UInt8(min(max(value, 0), 255))
    }
}

/// One point of a `curve()` tone curve: input level `x`, output level `y` (both 0...255).
///
/// Thread safety: a value type; safe to send and share.
struct ThumborCurvePoint: Hashable, Sendable {
    var x: Int
    var y: Int

    /// `[(x,y),(x,y),...]` (a trailing comma allowed, as thumbor's pattern allows it), or nil unless there is at
    /// least one point, every value is in 0...255 and x strictly rises.
    static func list(_ text: String) -> [ThumborCurvePoint]? {
        guard text.first == "[", text.last == "]" else { return nil }
        var points: [ThumborCurvePoint] = []
        var rest = Substring(text.dropFirst().dropLast())
        while !rest.isEmpty {
            guard rest.first == "(", let close = rest.firstIndex(of: ")") else { return nil }
            let pair = rest[rest.index(after: rest.startIndex)..<close].split(separator: ",", omittingEmptySubsequences: false)
            guard pair.count == 2, let x = ThumborRequest.number(pair[0]), let y = ThumborRequest.number(pair[1]),
                  x <= 255, y <= 255, x > (points.last?.x ?? -1)
            else { return nil }
            points.append(ThumborCurvePoint(x: x, y: y))
            rest = rest[rest.index(after: close)...]
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return points.isEmpty ? nil : points
    }
}
