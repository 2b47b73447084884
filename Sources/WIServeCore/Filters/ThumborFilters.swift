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
            guard let open = rest.utf8.firstIndex(of: UInt8(ascii: "(")),
                let (close, arguments) = Self.arguments(after: open, in: rest, closedAtEnd: false)
            else {
                throw ServeError(.badRequest, "malformed filter \(rest)")
            }
            let name = String(rest[..<open])
            filters.append(try parse(name: name, arguments: arguments, strict: true))
            rest = rest[rest.utf8.index(after: close)...]
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
        for index in pieces.indices {
            // Each piece but the last lost its `)` to the cut: it closes at its end.
            let piece = pieces[index]
            let closedAtEnd = index != pieces.count - 1
            guard let open = piece.utf8.firstIndex(of: UInt8(ascii: "(")),
                let (_, arguments) = Self.arguments(after: open, in: piece, closedAtEnd: closedAtEnd),
                let filter = try? parse(name: String(piece[..<open]), arguments: arguments, strict: false)
            else {
                skipped.append(closedAtEnd ? piece + ")" : String(piece))
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
    /// nest, as in `curve([(0,0),(255,255)],...)`; commas split only outside them), and where it closes;
    /// `closedAtEnd`: a text that ends outside any bracket closes there. On the UTF-8 bytes, as every delimiter is
    /// ASCII (thumbor's patterns match code points: a `)` before a combining mark still closes).
    private static func arguments(after open: Substring.Index, in text: Substring, closedAtEnd: Bool)
        -> (Substring.Index, [String])?
    {
        let utf8 = text.utf8
        var depth = 0
        var arguments: [String] = []
        var start = utf8.index(after: open)
        func argument(upTo end: Substring.Index) -> String {
            var first = start
            while first < end, utf8[first] == UInt8(ascii: " ") { first = utf8.index(after: first) }
            return String(text[first..<end])
        }
        var index = start
        while index < utf8.endIndex {
            switch utf8[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: ")") where depth == 0:
                arguments.append(argument(upTo: index))
                return (index, arguments)
            case UInt8(ascii: ")"), UInt8(ascii: "]"):
                depth -= 1
                if depth < 0 { return nil }
            case UInt8(ascii: ",") where depth == 0:
                arguments.append(argument(upTo: index))
                start = utf8.index(after: index)
            default:
                break
            }
            index = utf8.index(after: index)
        }
        guard closedAtEnd, depth == 0 else { return nil }
        arguments.append(argument(upTo: index))
        return (index, arguments)
    }
}

extension [any ThumborFilter] {
    /// Whether a filter of `type` is in the list.
    func contains<Filter: ThumborFilter>(_ type: Filter.Type) -> Bool { contains { $0 is Filter } }

    /// The filters of `type`, in URL order.
    func of<Filter: ThumborFilter>(_ type: Filter.Type) -> [Filter] { compactMap { $0 as? Filter } }
}
