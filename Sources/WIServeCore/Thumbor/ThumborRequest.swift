#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// One parsed thumbor URL: `/{unsafe|SIGNATURE}/[trim[:top-left|:bottom-right][:TOLERANCE]/][AxB:CxD/]`
/// `[[adaptive-][full-]fit-in/][-]WxH/[halign/][valign/][smart/][filters:NAME(ARGS):.../]IMAGE_URL`.
///
/// Thread safety: a value type; safe to send and share.
struct ThumborRequest: Sendable {
    /// Horizontal alignment of a fill crop.
    enum HorizontalAlignment: String, Sendable { case left, center, right }
    /// Vertical alignment of a fill crop.
    enum VerticalAlignment: String, Sendable { case top, middle, bottom }
    /// A requested side: pixels (0 keeps the aspect ratio) or the source's own (`orig`).
    enum Side: Hashable, Sendable {
        case pixels(Int)
        case original
    }
    /// A manual crop rectangle by its corners (`AxB:CxD`), in source pixels.
    struct CropBox: Hashable, Sendable {
        var left: Int, top: Int, right: Int, bottom: Int
    }
    /// `trim`: the borders in the colour of one corner cut off first (WITransform's `TrimTransformer`).
    struct Trim: Hashable, Sendable {
        /// The corner whose colour is the border's: top left (thumbor's default) or bottom right.
        var bottomRight = false
        /// How far (Euclidean distance over R, G, B and A) a pixel may be from that colour and still be border.
        var tolerance = 0
    }

    /// `unsafe`, or the URL-safe base64 signature.
    var signature: String
    /// The path after `/SIGNATURE/`, as sent (what the signature covers).
    var signedPath: String
    /// `meta/`: answer thumbor's JSON of the source and the operations instead of the image (`ThumborMeta`).
    var meta = false
    /// `meta/`'s `?callback=NAME` (thumbor's JSONP form): the JSON wrapped in a call of NAME.
    var metaCallback: String?
    var trim: Trim?
    var crop: CropBox?
    /// `fit-in/` or one of its variants: fit inside the box (never enlarging unless `upscale()`).
    var fitIn = false
    /// `full-fit-in/`: cover the box instead (the smaller side fits).
    var fullFitIn = false
    /// `adaptive-fit-in/`: the box turned to the source's orientation first.
    var adaptiveFitIn = false
    var width = Side.pixels(0)
    var height = Side.pixels(0)
    var flipHorizontally = false
    var flipVertically = false
    var horizontalAlignment = HorizontalAlignment.center
    var verticalAlignment = VerticalAlignment.middle
    var smart = false
    /// The filters in URL order (`ThumborFilters`).
    var filters: [any ThumborFilter] = []
    /// The filters the URL names that were skipped as thumbor skips them (not with `strict`), as written.
    var skippedFilters: [String] = []

    /// The seconds of the last `max_age()` filter, if any (thumbor applies filters in order: the last one wins).
    var maxAge: Int? { filters.of(ThumborFilters.MaxAge.self).last?.seconds }

    /// The source URL, percent-decoded, with `http://` added when it names no scheme.
    var imageURL: String
    /// The source as written, percent-decoded, without the `http://` added (a path under `--file-root`).
    var imagePath = ""

    /// The largest number a size, crop corner or filter argument may have (bigger is a 400, never an overflow).
    static let maximumNumber = 1 << 20

    /// Parses `path` (the request's path, not percent-decoded, with its leading `/`). `strict` (`--strict`): a
    /// filter thumbor would skip is a 400 naming it (`ThumborFilters.parseList`).
    static func parse(path: String, strict: Bool = false) throws(ServeError) -> ThumborRequest {
        // Every delimiter is ASCII: the path is cut on its UTF-8 bytes (no grapheme breaking; thumbor's regular
        // expressions match code points, so a `/` before a combining mark still ends a segment).
        var rest = Substring(path)
        if rest.utf8.first == slashByte { rest = rest[rest.utf8.index(after: rest.startIndex)...] }
        guard let slash = rest.utf8.firstIndex(of: slashByte) else { throw ServeError(.notFound, "no such route") }
        let signature = String(rest[..<slash])
        let signed = rest[rest.utf8.index(after: slash)...]
        guard !signature.isEmpty else { throw ServeError(.notFound, "no such route") }
        var request = ThumborRequest(signature: signature, signedPath: String(signed), imageURL: "")
        var remaining = signed
        if remaining.utf8.starts(with: "meta/".utf8) {
            request.meta = true
            remaining = remaining[remaining.utf8.index(remaining.startIndex, offsetBy: 5)...]
            if let callback = try Self.callback(in: &remaining) {
                request.metaCallback = callback
                request.signedPath = "meta/" + remaining
            }
        }
        if let end = remaining.utf8.firstIndex(of: slashByte), let trim = try Self.trim(remaining[..<end]) {
            request.trim = trim
            remaining = remaining[remaining.utf8.index(after: end)...]
        }
        var stage = 0  // the next optional part that may appear; parts come in this order only
        while let end = remaining.utf8.firstIndex(of: slashByte) {
            let segment = remaining[..<end]
            guard let next = try request.consume(segment, after: stage, whole: &remaining, strict: strict) else {
                break
            }
            stage = next
            if remaining.startIndex == segment.startIndex { remaining = remaining[remaining.utf8.index(after: end)...] }
        }
        guard !remaining.isEmpty else { throw ServeError(.badRequest, "the URL names no image") }
        request.imageURL = Self.imageURL(remaining)
        let path = String(remaining)
        request.imagePath = remaining.utf8.contains(UInt8(ascii: "%")) ? path.percentDecoded ?? path : path
        return request
    }

    private static let slashByte = UInt8(ascii: "/")

    /// Whether `text`'s bytes are `literal`'s.
    private static func equals(_ text: Substring, _ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { text.utf8.elementsEqual($0) }
    }

    /// The two sides of the one `separator` byte in `text` (either may be empty); nil when it occurs no time or
    /// more than once.
    private static func halves(_ text: Substring, _ separator: UInt8) -> (Substring, Substring)? {
        let utf8 = text.utf8
        guard let at = utf8.firstIndex(of: separator) else { return nil }
        let after = utf8.index(after: at)
        guard !utf8[after...].contains(separator) else { return nil }
        return (text[..<at], text[after...])
    }

    /// Applies `segment` when it is an option allowed after stage `stage`; returns the new stage, or nil when the
    /// segment starts the image URL. Filters may hold `/` inside their arguments' parentheses, so that part
    /// advances `whole` itself.
    private mutating func consume(_ segment: Substring, after stage: Int, whole: inout Substring, strict: Bool)
        throws(ServeError)
        -> Int?
    {
        if stage < 1, let box = Self.cropBox(segment) {
            crop = box
            return 1
        }
        if stage < 2 {
            let full = Self.equals(segment, "full-fit-in")
            let adaptive = Self.equals(segment, "adaptive-fit-in")
            let adaptiveFull = Self.equals(segment, "adaptive-full-fit-in")
            if full || adaptive || adaptiveFull || Self.equals(segment, "fit-in") {
                fitIn = true
                fullFitIn = full || adaptiveFull
                adaptiveFitIn = adaptive || adaptiveFull
                return 2
            }
        }
        if stage < 3, try parseSize(segment) { return 3 }
        if stage < 4, let alignment = Self.horizontal(segment) {
            horizontalAlignment = alignment
            return 4
        }
        if stage < 5, let alignment = Self.vertical(segment) {
            verticalAlignment = alignment
            return 5
        }
        if stage < 6, Self.equals(segment, "smart") {
            smart = true
            return 6
        }
        if stage < 7, segment.utf8.starts(with: "filters:".utf8) {
            // The filter list ends at the first ")/" (thumbor's own rule).
            guard let close = Self.closingParenthesis(in: whole) else { return nil }
            let list = whole[whole.utf8.index(whole.startIndex, offsetBy: "filters:".utf8.count)...close]
            filters = try ThumborFilters.parseList(list, strict: strict, skipped: &skippedFilters)
            whole = whole[whole.utf8.index(close, offsetBy: 2)...]
            return 7
        }
        return nil
    }

    /// The index of the first `)` followed by `/` in `text`.
    private static func closingParenthesis(in text: Substring) -> Substring.Index? {
        firstParenthesis(followedBy: slashByte, in: text, from: text.startIndex)
    }

    /// The index of the first `)` at or after `start` in `text` whose next byte is `next`, on the UTF-8 bytes.
    static func firstParenthesis(followedBy next: UInt8, in text: Substring, from start: Substring.Index)
        -> Substring.Index?
    {
        let utf8 = text.utf8
        var index = start
        while let close = utf8[index...].firstIndex(of: UInt8(ascii: ")")) {
            let after = utf8.index(after: close)
            if after == utf8.endIndex { return nil }
            if utf8[after] == next { return close }
            index = after
        }
        return nil
    }

    private static func horizontal(_ segment: Substring) -> HorizontalAlignment? {
        equals(segment, "left") ? .left : equals(segment, "center") ? .center : equals(segment, "right") ? .right : nil
    }

    private static func vertical(_ segment: Substring) -> VerticalAlignment? {
        equals(segment, "top") ? .top : equals(segment, "middle") ? .middle : equals(segment, "bottom") ? .bottom : nil
    }

    /// The `callback` parameter of `path`'s query, taken out of it (the rest of the query stays the source's), or
    /// nil. A name that is no JavaScript identifier path (letters, digits, `_`, `$`, `.`) is a 400: it is written
    /// into a script answer.
    private static func callback(in path: inout Substring) throws(ServeError) -> String? {
        guard let question = path.lastIndex(of: "?") else { return nil }
        var items = path[path.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
        guard let index = items.firstIndex(where: { $0.hasPrefix("callback=") }) else { return nil }
        let name = String(items[index].dropFirst("callback=".count))
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.")
        guard !name.isEmpty, name.count <= 128, name.allSatisfy(allowed.contains), name.first?.isNumber == false else {
            throw ServeError(.badRequest, "callback must be a JavaScript name, got '\(name)'")
        }
        items.remove(at: index)
        path = Substring(path[..<question] + (items.isEmpty ? "" : "?" + items.joined(separator: "&")))
        return name
    }

    /// `trim`, `trim:top-left` or `trim:bottom-right`, each with an optional `:TOLERANCE`; nil when the segment is
    /// not a trim (it may be a crop, a size or the image URL). `trim:N` is read as thumbor reads it: its second
    /// part names the corner, and any name but `top-left` means the bottom-right one, with tolerance 0.
    private static func trim(_ segment: Substring) throws(ServeError) -> Trim? {
        guard segment.utf8.starts(with: "trim".utf8) else { return nil }
        let parts = segment.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.first == "trim" else { return nil }
        let bad = ServeError(.badRequest, "trim takes top-left or bottom-right and a tolerance, got '\(segment)'")
        switch parts.count {
        case 1:
            return Trim()
        case 2 where parts[1] == "top-left" || parts[1] == "bottom-right":
            return Trim(bottomRight: parts[1] == "bottom-right", tolerance: 0)
        case 2 where number(parts[1]) != nil:
            return Trim(bottomRight: true, tolerance: 0)
        case 3 where parts[1] == "top-left" || parts[1] == "bottom-right":
            guard let tolerance = number(parts[2]) else { throw bad }
            return Trim(bottomRight: parts[1] == "bottom-right", tolerance: tolerance)
        default:
            throw bad
        }
    }

    /// `AxB:CxD`, or nil.
    static func cropBox(_ segment: Substring) -> CropBox? {
        guard let corners = halves(segment, UInt8(ascii: ":")), let first = pair(corners.0),
            let second = pair(corners.1)
        else { return nil }
        return CropBox(left: first.0, top: first.1, right: second.0, bottom: second.1)
    }

    private static func pair(_ text: Substring) -> (Int, Int)? {
        guard let parts = halves(text, UInt8(ascii: "x")), let a = number(parts.0), let b = number(parts.1)
        else { return nil }
        return (a, b)
    }

    /// Digits only (ASCII), at most 8 of them and at most `maximumNumber`.
    static func number(_ text: Substring) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 8 else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value <= maximumNumber ? value : nil
    }

    /// `[-]WxH` with either side optional, `orig`, and a minus before either side; false when not a size.
    private mutating func parseSize(_ segment: Substring) throws(ServeError) -> Bool {
        guard let parts = Self.halves(segment, UInt8(ascii: "x")) else { return false }
        func side(_ text: Substring) -> (flip: Bool, side: Side)? {
            let flip = text.utf8.first == UInt8(ascii: "-")
            let body = flip ? text[text.utf8.index(after: text.startIndex)...] : text
            if body.isEmpty { return (flip, .pixels(0)) }
            if Self.equals(body, "orig") { return (flip, .original) }
            guard body.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return (flip, .pixels(-1))
        }
        guard let w = side(parts.0), let h = side(parts.1) else { return false }
        func value(_ text: Substring, _ parsed: Side) throws(ServeError) -> Side {
            guard parsed == .pixels(-1) else { return parsed }
            let digits = text.utf8.first == UInt8(ascii: "-") ? text[text.utf8.index(after: text.startIndex)...] : text
            guard let number = Self.number(digits) else {
                throw ServeError(.badRequest, "size \(segment) is out of range (at most \(Self.maximumNumber))")
            }
            return .pixels(number)
        }
        width = try value(parts.0, w.side)
        height = try value(parts.1, h.side)
        flipHorizontally = w.flip
        flipVertically = h.flip
        return true
    }

    /// The URL a filter's argument names (`watermark()`, `frame()`): single quotes around it dropped, then as
    /// `imageURL(_:)`; nil when nothing is left.
    static func filterImageURL(_ argument: String) -> String? {
        var address = Substring(argument)
        if address.count >= 2, address.first == "'", address.last == "'" { address = address.dropFirst().dropLast() }
        return address.isEmpty ? nil : imageURL(address)
    }

    /// The image URL: percent-decoded when it was sent encoded (`http%3A%2F%2F...`), with `http://` when it names
    /// no scheme (thumbor's rules).
    static func imageURL(_ text: Substring) -> String {
        var url = String(text)
        if url.utf8.contains(UInt8(ascii: "%")), let decoded = url.percentDecoded { url = decoded }
        if !(startsIgnoringCase(url, "http://") || startsIgnoringCase(url, "https://")), !url.contains("://") {
            url = "http://" + url
        }
        return url
    }

    /// Whether `text` starts with `prefix` (lowercase ASCII) in any case, on the bytes.
    private static func startsIgnoringCase(_ text: String, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in
            text.utf8.count >= prefix.count
                && zip(text.utf8, prefix).allSatisfy { byte, lower in
                    byte == lower || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") && byte == lower - 32)
                }
        }
    }
}
