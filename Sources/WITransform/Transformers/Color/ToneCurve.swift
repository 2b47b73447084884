/// Natural cubic splines through tone-curve points, as thumbor's `_curve` extension evaluates them.
enum ToneCurve {
    /// The 256 values of the natural cubic spline through `points` (x strictly rising): second derivatives from
    /// the tridiagonal system (zero at both ends) by forward elimination and back substitution, each segment's
    /// cubic rounded half away from zero and clamped; below the first point the first y, from the last point on
    /// the last y.
    static func spline(_ points: [(x: Int, y: Int)]) -> [UInt8] {
        let count = points.count
        var lower = [Double](repeating: 0, count: count)
        var diagonal = lower
        var upper = lower
        var right = lower
        diagonal[0] = 1
        for i in 1..<max(1, count - 1) {
            let (previous, current, next) = (points[i - 1], points[i], points[i + 1])
            lower[i] = Double(current.x - previous.x) / 6
            diagonal[i] = Double(next.x - previous.x) / 3
            upper[i] = Double(next.x - current.x) / 6
            right[i] =
                Double(next.y - current.y) / Double(next.x - current.x)
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
                let b = Double(x - start.x) / width
                let a = 1 - b
                let y =
                    a * Double(start.y) + b * Double(end.y)
                    + (width * width / 6) * ((a * a * a - a) * second[i] + (b * b * b - b) * second[i + 1])
                table[x] = UInt8(min(max(y.rounded(), 0), 255))
            }
        }
        for x in points[count - 1].x...255 { table[x] = UInt8(points[count - 1].y) }
        return table
    }
}
