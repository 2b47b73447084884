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
            let pair = rest[rest.index(after: rest.startIndex)..<close].split(
                separator: ",", omittingEmptySubsequences: false)
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
