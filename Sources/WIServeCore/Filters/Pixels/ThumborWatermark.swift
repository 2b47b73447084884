import WITransform

/// thumbor's `watermark(URL,X,Y,ALPHA[,W_RATIO[,H_RATIO]])`: another image drawn over every frame.
///
/// X and Y are pixels from the left / top, or from the right / bottom with a minus (`-0` aligns the edges), a
/// percentage of the image's side with `p` (`10p`, `-10p`), `center`, or `repeat` (tiled along that axis, as
/// thumbor spaces its tiles). ALPHA is the watermark's transparency in percent (its alpha lowered by ALPHA% of
/// 255). W_RATIO / H_RATIO (percent, or `none`) resize the watermark to fit that share of the image's width /
/// height, keeping its aspect ratio.
///
/// Thread safety: a value type; safe to send and share.
struct ThumborWatermark: Hashable, Sendable, CustomStringConvertible {
    /// Where the watermark goes along one axis.
    typealias Position = OverlayTransformer.Position

    /// The watermark image's URL, as the request names it (`http://` added when it has no scheme).
    var url: String
    var x: Position
    var y: Position
    /// 0 (as it is) to 100 (invisible).
    var transparency: Int
    /// The largest share of the image's width / height the watermark may take, in percent; nil: no limit.
    var widthRatio: Int?
    var heightRatio: Int?

    /// The most watermarks one request may draw (each is another load).
    static let maximumPerRequest = 4

    var description: String {
        let ratios = [widthRatio, heightRatio].map { $0.map(String.init) ?? "none" }.joined(separator: ",")
        return "watermark(\(url),\(x),\(y),\(transparency),\(ratios))"
    }
}

extension ThumborWatermark {
    /// `watermark()`'s arguments; a bad one is a 400 naming it.
    init(arguments: [String]) throws(ServeError) {
        guard (4...6).contains(arguments.count) else {
            throw ServeError(.badRequest, "watermark() takes 4 to 6 argument(s), got \(arguments.count)")
        }
        guard let url = ThumborRequest.filterImageURL(arguments[0]) else {
            throw ServeError(.badRequest, "watermark() argument 1 must be the image's URL")
        }
        self.url = url
        x = try Self.position(arguments[1], argument: 2)
        y = try Self.position(arguments[2], argument: 3)
        guard let alpha = ThumborRequest.number(Substring(arguments[3])), alpha <= 100 else {
            throw ServeError(.badRequest, "watermark() argument 4 must be an integer in 0...100, got '\(arguments[3])'")
        }
        transparency = alpha
        widthRatio = arguments.count > 4 ? try Self.ratio(arguments[4], argument: 5) : nil
        heightRatio = arguments.count > 5 ? try Self.ratio(arguments[5], argument: 6) : nil
    }

    private static func position(_ text: String, argument: Int) throws(ServeError) -> Position {
        if text == "center" { return .center }
        if text == "repeat" { return .tiled }
        var digits = Substring(text)
        let fromEnd = digits.first == "-"
        if fromEnd { digits = digits.dropFirst() }
        let percent = digits.last == "p"
        if percent { digits = digits.dropLast() }
        guard let value = ThumborRequest.number(digits) else {
            throw ServeError(
                .badRequest,
                "watermark() argument \(argument) must be pixels, a percentage (Np), center or repeat, got '\(text)'")
        }
        return percent ? .percent(value, fromEnd: fromEnd) : .pixels(value, fromEnd: fromEnd)
    }

    /// A ratio in percent (1...100), or nil for `none` and 0 (thumbor's "no limit").
    private static func ratio(_ text: String, argument: Int) throws(ServeError) -> Int? {
        if text == "none" { return nil }
        guard let value = ThumborRequest.number(Substring(text)), value <= 100 else {
            throw ServeError(
                .badRequest, "watermark() argument \(argument) must be a percentage in 0...100 or none, got '\(text)'")
        }
        return value == 0 ? nil : value
    }
}
