/// The thumbor filters the service knows, and the parser of a URL's filter list.
///
/// Thread safety: stateless; the table is immutable.
enum ThumborFilters {
    /// Every filter, one line each: the one list a new filter joins (its type lives in a file of its own here).
    static let all: [any ThumborFilter.Type] = [
        Quality.self, Format.self, AutoJPG.self, StripEXIF.self, StripICC.self, MaxBytes.self, MaxAge.self,
        NoUpscale.self, Upscale.self, Proportion.self, Stretch.self, Focal.self, ExtractFocal.self, Fill.self,
        Cover.self,
        Blur.self, Rotate.self, RoundCorner.self, Brightness.self, Contrast.self, RGB.self, Colorize.self, Curve.self,
        Saturation.self, Grayscale.self, Equalize.self, Noise.self, Sharpen.self, Convolution.self,
        BackgroundColor.self,
        Watermark.self, Frame.self,
    ]

    /// The filters by thumbor's name.
    static let byName: [String: any ThumborFilter.Type] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// Parses `NAME(ARGS):NAME(ARGS)...`. Strict (`--strict`): an unknown filter, a bad argument or a malformed
    /// list is a 400 naming it. Otherwise thumbor's way: the list is cut at each `):`, and a piece whose filter is
    /// unknown or whose arguments the filter does not take is skipped (text after a piece's closing parenthesis is
    /// ignored, as thumbor's prefix match ignores it), and named in `skipped` as written. More than
    /// `ThumborWatermark.maximumPerRequest` watermarks, or frames, is a 400 either way (each is a load).
    static func parseList(_ text: Substring, strict: Bool, skipped: inout [String]) throws(ServeError)
        -> [any ThumborFilter]
    {
        let filters = strict ? try strictList(text) : lenientList(text, skipped: &skipped)
        if filters.count(where: { $0 is Watermark }) > ThumborWatermark.maximumPerRequest {
            throw ServeError(
                .badRequest, "at most \(ThumborWatermark.maximumPerRequest) watermark() filters per request")
        }
        if filters.count(where: { $0 is Frame }) > ThumborWatermark.maximumPerRequest {
            throw ServeError(.badRequest, "at most \(ThumborWatermark.maximumPerRequest) frame() filters per request")
        }
        return filters
    }

    /// `parseList(_:strict:skipped:)` without the skipped pieces.
    static func parseList(_ text: Substring, strict: Bool) throws(ServeError) -> [any ThumborFilter] {
        var skipped: [String] = []
        return try parseList(text, strict: strict, skipped: &skipped)
    }

    /// One filter from its name and arguments; an unknown name is a 400.
    static func parse(name: String, arguments: [String], strict: Bool) throws(ServeError) -> any ThumborFilter {
        guard let type = byName[name] else { throw ServeError(.badRequest, "unknown filter '\(name)'") }
        return try type.init(
            ThumborFilterArguments(name: name, values: arguments == [""] ? [] : arguments, strict: strict))
    }

    private static func strictList(_ text: Substring) throws(ServeError) -> [any ThumborFilter] {
        var filters: [any ThumborFilter] = []
        var rest = text
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let (close, arguments) = Self.arguments(after: open, in: rest)
            else {
                throw ServeError(.badRequest, "malformed filter \(rest)")
            }
            let name = String(rest[..<open])
            filters.append(try parse(name: name, arguments: arguments, strict: true))
            rest = rest[rest.index(after: close)...]
            if rest.first == ":" {
                rest = rest.dropFirst()
                if rest.isEmpty { throw ServeError(.badRequest, "malformed filter list: it ends with ':'") }
            } else if !rest.isEmpty {
                throw ServeError(.badRequest, "malformed filter list after \(name)()")
            }
        }
        return filters
    }

    private static func lenientList(_ text: Substring, skipped: inout [String]) -> [any ThumborFilter] {
        var filters: [any ThumborFilter] = []
        let pieces = Self.pieces(of: text)
        for (index, piece) in pieces.enumerated() {
            let piece = index == pieces.count - 1 ? piece : Substring(piece + ")")
            guard let open = piece.firstIndex(of: "("), let (_, arguments) = Self.arguments(after: open, in: piece),
                let filter = try? parse(name: String(piece[..<open]), arguments: arguments, strict: false)
            else {
                skipped.append(String(piece))
                continue
            }
            filters.append(filter)
        }
        return filters
    }

    /// `text` cut at each `):` (the `)` dropped with the `:`), empty pieces kept: on the bytes, as every delimiter is
    /// ASCII (a generic subsequence split cost about 1% of a cached answer).
    private static func pieces(of text: Substring) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        while let close = ThumborRequest.firstParenthesis(followedBy: UInt8(ascii: ":"), in: text, from: start) {
            pieces.append(text[start..<close])
            start = text.utf8.index(close, offsetBy: 2)
        }
        pieces.append(text[start...])
        return pieces
    }

    /// The arguments between the parenthesis at `open` and the one that closes it (brackets and parentheses inside
    /// nest, as in `curve([(0,0),(255,255)],...)`; commas split only outside them), and where it closes.
    private static func arguments(after open: Substring.Index, in text: Substring) -> (Substring.Index, [String])? {
        var depth = 0
        var arguments: [String] = []
        var current = ""
        var index = text.index(after: open)
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "(", "[":
                depth += 1
            case ")" where depth == 0:
                arguments.append(String(current.trimmingPrefix(" ")))
                return (index, arguments)
            case ")", "]":
                depth -= 1
                if depth < 0 { return nil }
            case "," where depth == 0:
                arguments.append(String(current.trimmingPrefix(" ")))
                current = ""
                index = text.index(after: index)
                continue
            default:
                break
            }
            current.append(character)
            index = text.index(after: index)
        }
        return nil
    }
}

extension [any ThumborFilter] {
    /// Whether a filter of `type` is in the list.
    func contains<Filter: ThumborFilter>(_ type: Filter.Type) -> Bool { contains { $0 is Filter } }

    /// The filters of `type`, in URL order.
    func of<Filter: ThumborFilter>(_ type: Filter.Type) -> [Filter] { compactMap { $0 as? Filter } }
}
