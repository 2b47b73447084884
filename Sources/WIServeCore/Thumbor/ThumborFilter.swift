import WICore
import WITransform

/// One thumbor filter from the URL's `filters:` part, with its arguments checked.
///
/// Thread safety: a value type; safe to send and share.
enum ThumborFilter: Hashable, Sendable {
    /// The most weights a `convolution()` kernel may have (thumbor has no limit; each weight costs a pass).
    static let maximumConvolutionWeights = 625

    /// `quality(N)`, N in 0...100.
    case quality(Int)
    /// `format(jpeg|png|webp|avif|gif|heic)`.
    case format(ImageFormat)
    /// `no_upscale()`: never enlarge the source (the requested sides capped at the source's).
    case noUpscale
    /// `upscale()`: with `fit-in`, enlarge a source smaller than the box to fit it (thumbor keeps it otherwise).
    case upscale
    /// `proportion(X)`, 0 < X <= 1: the result scaled by X (truncated; skipped when a side would be 0).
    case proportion(Double)
    /// `stretch()`: without `fit-in`, resize to the requested size without cropping to its aspect ratio.
    case stretch
    /// `convolution(W1;W2;...,COLUMNS[,NORMALIZE])`: a kernel in rows of COLUMNS (both counts odd), normalized to sum
    /// 1 unless NORMALIZE is false (WITransform's `ConvolutionTransformer`).
    case convolution(weights: [Double], columns: Int, normalize: Bool)
    /// `sharpen(AMOUNT,RADIUS,LUMINANCE_ONLY)`: thumbor's wavelet sharpen (see `ThumborSharpen`).
    case sharpen(amount: Double, radius: Double, luminanceOnly: Bool)
    /// `focal(AxB:CxD)`: a region the fill crop centres on instead of the alignment (several: their centre of mass,
    /// weighted by area); an empty one is ignored.
    case focal(ThumborRequest.CropBox)
    /// `blur(R)` or `blur(R,S)`: thumbor's Gaussian blur of integer radius R (the kernel's half width) and
    /// standard deviation S (0 or absent: R); see `ThumborBlur`.
    case blur(radius: Int, sigma: Double)
    /// `rotate(DEG)`: a multiple of 90, turned counter-clockwise (thumbor's direction).
    case rotate(Int)
    /// `round_corner(R,r,g,b)` or `round_corner(R,r,g,b,1)`: corners of radius R painted in the colour, or left
    /// transparent when the fifth argument is 1 / true.
    case roundCorner(radius: Double, color: RGBAColor, transparent: Bool)
    /// `fill(COLOR)`: the background of `fit-in` (the box is filled to its full size) and of transparent pixels
    /// in formats without alpha. COLOR is a name, `RRGGBB`, `RGB` or `transparent`.
    case fill(RGBAColor)
    /// `strip_exif()`: leave EXIF out of the output.
    case stripEXIF
    /// `strip_icc()`: leave the ICC profile out of the output.
    case stripICC
    /// `background_color(COLOR)`: the image merged over a canvas of COLOR of its own size (thumbor's `_composite`),
    /// so transparent areas take the colour in every output format.
    case backgroundColor(RGBAColor)
    /// `brightness(N)`: N percent of 255 added to red, green and blue (thumbor's range is -100...100; up to
    /// +-1000 is taken, and saturates as in thumbor).
    case brightness(Int)
    /// `contrast(N)`: red, green and blue moved away from (N > 0) or towards (N < 0) 128.
    case contrast(Int)
    /// `rgb(R,G,B)`: each channel's own `brightness`.
    case rgb(red: Int, green: Int, blue: Int)
    /// `saturation(X)`: colour scaled by X around the pixel's perceived brightness (0: grey, 1: unchanged).
    case saturation(Double)
    /// `grayscale()`: the luma in red, green and blue; alpha kept.
    case grayscale
    /// `colorize(R%,G%,B%,RRGGBB)`: each channel moved that many percent of the way to the fill colour's.
    case colorize(red: Int, green: Int, blue: Int, fill: RGBAColor)
    /// `noise(AMOUNT[,SEED])`: a random offset per pixel (WITransform's `NoiseTransformer`; without a seed, a random one).
    case noise(amount: Int, seed: Int)
    /// `curve([(x,y),...],[...],[...],[...])`: tone curves through the points (natural cubic splines), for all
    /// channels after each channel's own (red, green, blue).
    case curve(all: [ThumborCurvePoint], red: [ThumborCurvePoint], green: [ThumborCurvePoint], blue: [ThumborCurvePoint])
    /// `max_age(N)`: `Cache-Control: public, max-age=N` on this answer instead of the server's `--max-age`.
    case maxAge(Int)
    /// `max_bytes(N)`: a JPEG or WebP answer re-encoded at lower qualities until it fits N bytes (see `EncodePlan`).
    case maxBytes(Int)
    /// `watermark(URL,X,Y,ALPHA[,W_RATIO[,H_RATIO]])`: see `ThumborWatermark`.
    case watermark(ThumborWatermark)

    /// The largest `max_age()`: the server's own `maxAge` limit (ten years).
    static let maximumMaxAge = 10 * 365 * 86_400

    /// The formats `format()` accepts, by thumbor's names.
    static let formats: [String: ImageFormat] = [
        "jpeg": .jpeg, "jpg": .jpeg, "png": .png, "webp": .webp, "avif": .avif, "gif": .gif, "heic": .heic,
    ]

    /// Parses `NAME(ARGS):NAME(ARGS)...`; an unknown filter or a bad argument is a 400 naming it.
    static func parseList(_ text: Substring) throws(ServeError) -> [ThumborFilter] {
        var filters: [ThumborFilter] = []
        var rest = text
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let (close, arguments) = Self.arguments(after: open, in: rest) else {
                throw ServeError(.badRequest, "malformed filter \(rest)")
            }
            let name = String(rest[..<open])
            filters.append(try parse(name: name, arguments: arguments == [""] ? [] : arguments))
            if case .watermark = filters.last,
               filters.count(where: { if case .watermark = $0 { true } else { false } }) > ThumborWatermark.maximumPerRequest {
                throw ServeError(.badRequest, "at most \(ThumborWatermark.maximumPerRequest) watermark() filters per request")
            }
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

    /// The arguments between the parenthesis at `open` and the one that closes it (brackets and parentheses inside
    /// nest, as in `curve([(0,0),(255,255)],...)`; commas split only outside them), and where it closes.
    private static func arguments(after open: Substring.Index, in text: Substring) -> (Substring.Index, [String])? {
        var depth = 0, arguments: [String] = [], current = ""
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

    static func parse(name: String, arguments: [String]) throws(ServeError) -> ThumborFilter {
        func count(_ allowed: ClosedRange<Int>) throws(ServeError) {
            guard allowed.contains(arguments.count) else {
                let expected = allowed.lowerBound == allowed.upperBound ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
                throw ServeError(.badRequest, "\(name)() takes \(expected) argument(s), got \(arguments.count)")
            }
        }
        func integer(_ index: Int, _ range: ClosedRange<Int>) throws(ServeError) -> Int {
            guard let value = Int(arguments[index]), range.contains(value) else {
                throw ServeError(.badRequest, "\(name)() argument \(index + 1) must be an integer in \(range), got '\(arguments[index])'")
            }
            return value
        }
        func real(_ index: Int, _ range: ClosedRange<Double>) throws(ServeError) -> Double {
            guard let value = Double(arguments[index]), value.isFinite, range.contains(value) else {
                throw ServeError(.badRequest, "\(name)() argument \(index + 1) must be a number in \(range), got '\(arguments[index])'")
            }
            return value
        }
        switch name {
        case "quality":
            try count(1...1)
            return .quality(try integer(0, 0...100))
        case "format":
            try count(1...1)
            guard let format = formats[arguments[0].lowercased()] else {
                throw ServeError(.badRequest, "format() must be one of jpeg, png, webp, avif, gif, heic, got '\(arguments[0])'")
            }
            return .format(format)
        case "no_upscale":
            try count(0...0)
            return .noUpscale
        case "upscale":
            try count(0...0)
            return .upscale
        case "stretch":
            try count(0...0)
            return .stretch
        case "convolution":
            try count(2...3)
            let items = arguments[0].split(separator: ";", omittingEmptySubsequences: false)
            let weights = items.compactMap { item -> Double? in
                guard !item.isEmpty, item.count <= 32, item.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") })
                else { return nil }
                return Double(item).flatMap { $0.isFinite ? $0 : nil }
            }
            guard weights.count == items.count, weights.count <= Self.maximumConvolutionWeights else {
                throw ServeError(.badRequest, "convolution() argument 1 must be at most \(Self.maximumConvolutionWeights) numbers separated by ';', got '\(arguments[0])'")
            }
            let columns = try integer(1, 1...Self.maximumConvolutionWeights)
            var normalize = true
            if arguments.count == 3 {
                switch arguments[2] {
                case "true", "True", "1": normalize = true
                case "false", "False", "0": normalize = false
                default: throw ServeError(.badRequest, "convolution() argument 3 must be true or false, got '\(arguments[2])'")
                }
            }
            guard (try? ConvolutionTransformer(weights: weights, columns: columns, normalize: normalize)) != nil else {
                throw ServeError(.badRequest, "convolution() needs an odd number of columns and of rows, got \(weights.count) weights in rows of \(columns)")
            }
            return .convolution(weights: weights, columns: columns, normalize: normalize)
        case "sharpen":
            try count(3...3)
            let luminanceOnly: Bool
            switch arguments[2] {
            case "true", "True", "1": luminanceOnly = true
            case "false", "False", "0": luminanceOnly = false
            default: throw ServeError(.badRequest, "sharpen() argument 3 must be true or false, got '\(arguments[2])'")
            }
            return .sharpen(amount: try real(0, -100...100), radius: try real(1, 0...100), luminanceOnly: luminanceOnly)
        case "focal":
            try count(1...1)
            guard let box = ThumborRequest.cropBox(Substring(arguments[0])) else {
                throw ServeError(.badRequest, "focal() takes a rectangle AxB:CxD, got '\(arguments[0])'")
            }
            return .focal(box)
        case "proportion":
            try count(1...1)
            return .proportion(try real(0, 0...1))
        case "blur":
            try count(1...2)
            let radius = try integer(0, 0...150)
            let sigma = arguments.count == 2 ? try real(1, 0...150) : 0
            return .blur(radius: radius, sigma: sigma)
        case "rotate":
            try count(1...1)
            let degrees = try integer(0, -3600...3600)
            guard degrees % 90 == 0 else {
                throw ServeError(.badRequest, "rotate() takes a multiple of 90 degrees, got \(degrees)")
            }
            return .rotate(((degrees % 360) + 360) % 360)
        case "round_corner":
            try count(4...5)
            guard let radius = Double(arguments[0]), radius.isFinite, (0...Double(ThumborRequest.maximumNumber)).contains(radius) else {
                throw ServeError(.badRequest, "round_corner() argument 1 must be a radius in 0...\(ThumborRequest.maximumNumber), got '\(arguments[0])'")
            }
            let red = try integer(1, 0...255), green = try integer(2, 0...255), blue = try integer(3, 0...255)
            let color = RGBAColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
            var transparent = false
            if arguments.count == 5 {
                switch arguments[4].lowercased() {
                case "1", "true": transparent = true
                case "0", "false": transparent = false
                default: throw ServeError(.badRequest, "round_corner() argument 5 must be 1, 0, true or false, got '\(arguments[4])'")
                }
            }
            return .roundCorner(radius: radius, color: color, transparent: transparent)
        case "fill":
            try count(1...2)
            guard let color = Self.color(arguments[0]) else {
                throw ServeError(.badRequest, "fill() takes a colour name, RRGGBB, RGB or transparent, got '\(arguments[0])'")
            }
            return .fill(color)
        case "strip_exif":
            try count(0...0)
            return .stripEXIF
        case "strip_icc":
            try count(0...0)
            return .stripICC
        case "background_color":
            try count(1...1)
            guard let color = Self.color(arguments[0]) else {
                throw ServeError(.badRequest, "background_color() takes a colour name, RRGGBB, RGB or transparent, got '\(arguments[0])'")
            }
            return .backgroundColor(color)
        case "brightness":
            try count(1...1)
            return .brightness(try integer(0, -1000...1000))
        case "contrast":
            try count(1...1)
            return .contrast(try integer(0, -1000...1000))
        case "rgb":
            try count(3...3)
            return .rgb(red: try integer(0, -1000...1000), green: try integer(1, -1000...1000),
                        blue: try integer(2, -1000...1000))
        case "saturation":
            try count(1...1)
            return .saturation(try real(0, -100...100))
        case "grayscale":
            try count(0...0)
            return .grayscale
        case "noise":
            try count(1...2)
            return .noise(amount: try integer(0, 0...1000), seed: arguments.count == 2 ? try integer(1, 0...Int(Int32.max)) : 0)
        case "curve":
            try count(4...4)
            var curves: [[ThumborCurvePoint]] = []
            for (index, argument) in arguments.enumerated() {
                guard let points = ThumborCurvePoint.list(argument) else {
                    throw ServeError(.badRequest, "curve() argument \(index + 1) must be points [(x,y),...] with x rising from 0 to 255 and y in 0...255, got '\(argument)'")
                }
                curves.append(points)
            }
            return .curve(all: curves[0], red: curves[1], green: curves[2], blue: curves[3])
        case "colorize":
            try count(4...4)
            let hex = arguments[3]
            guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else {
                throw ServeError(.badRequest, "colorize() argument 4 must be a colour as RRGGBB, got '\(hex)'")
            }
            let fill = RGBAColor(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
            return .colorize(red: try integer(0, 0...1000), green: try integer(1, 0...1000), blue: try integer(2, 0...1000),
                             fill: fill)
        case "max_age":
            try count(1...1)
            return .maxAge(try integer(0, 0...maximumMaxAge))
        case "max_bytes":
            try count(1...1)
            return .maxBytes(try integer(0, 1...(1 << 30)))
        case "watermark":
            return .watermark(try ThumborWatermark(arguments: arguments))
        default:
            throw ServeError(.badRequest, "unknown filter '\(name)'")
        }
    }

    /// A colour by name, `RRGGBB` or `RGB` (with or without `#`), as thumbor takes them (no alpha).
    static func color(_ text: String) -> RGBAColor? { RGBAColor(parsing: text, alpha: false) }
}
