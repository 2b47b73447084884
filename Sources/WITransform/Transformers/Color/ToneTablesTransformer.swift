import WICore

/// Maps each colour channel through a table of 256 levels: brightness, contrast, per-channel offsets, colorize
/// and tone curves are all this one operation with different tables. Alpha is left alone.
///
/// The factories compute their tables with thumbor 7.8's arithmetic (integer steps truncated toward zero, then
/// clamped; colorize in double precision; curves as natural cubic splines in thumbor's order), checked byte for
/// byte against thumbor (Tests/Fixtures/serve-color). 16-bit frames stay 16-bit: each sample is mapped through the
/// table with linear interpolation between levels (exact on the levels themselves).
/// Key: `ToneTables(brightness,20)`, `ToneTables(curves,<digest>)`.
///
/// ```swift
/// let brighter = try ToneTablesTransformer.brightness(20).transform(image)
/// context[.imageTransformer] = PipelineTransformer([try .contrast(30), try .toneCurves(all: [(0, 0), (128, 160), (255, 255)])])
/// ```
///
/// Thread safety: an immutable value; safe to use from any thread at once.
public struct ToneTablesTransformer: ImageTransformer, Hashable {
    /// The red, green and blue tables (256 entries each).
    public let red: [UInt8], green: [UInt8], blue: [UInt8]
    /// What made the tables, for the key.
    private let name: String

    /// Tables of your own; throws `.invalidArgument` unless each has 256 entries.
    public init(red: [UInt8], green: [UInt8], blue: [UInt8]) throws(ImageError) {
        for (table, channel) in [(red, "red"), (green, "green"), (blue, "blue")] where table.count != 256 {
            throw ArgumentCheck.invalid("\(channel) tone table", "have 256 entries", String(table.count))
        }
        self.init(red, green, blue, name: "custom," + Self.digest(red + green + blue))
    }

    private init(_ red: [UInt8], _ green: [UInt8], _ blue: [UInt8], name: String) {
        (self.red, self.green, self.blue, self.name) = (red, green, blue, name)
    }

    public var key: String { "ToneTables(\(name))" }

    public func transform(_ image: Image) throws(ImageError) -> Image {
        let wide = [red, green, blue].map(Self.widened)
        return try ChannelMapping.map(
            image,
            eight: { pixels in
                for index in stride(from: 0, to: pixels.count, by: 4) {
                    pixels[index] = red[Int(pixels[index])]
                    pixels[index + 1] = green[Int(pixels[index + 1])]
                    pixels[index + 2] = blue[Int(pixels[index + 2])]
                }
            },
            sixteen: { pixels in
                for index in stride(from: 0, to: pixels.count, by: 4) {
                    for channel in 0..<3 { pixels[index + channel] = wide[channel][Int(pixels[index + channel])] }
                }
            })
    }

    // MARK: Factories

    /// Adds `percent` of 255 to every channel (thumbor's `brightness(N)`); -1000...1000 (past ±100 every level
    /// saturates).
    public static func brightness(_ percent: Int) throws(ImageError) -> ToneTablesTransformer {
        try ArgumentCheck.within(percent, -1000...1000, "brightness")
        let table = Self.table { $0 + 255 * percent / 100 }
        return ToneTablesTransformer(table, table, table, name: "brightness,\(percent)")
    }

    /// Stretches (or flattens) levels around the middle grey (thumbor's `contrast(N)`); -10000...10000, where
    /// thumbor's integer arithmetic holds (past about +-1250 every level but 128 is 0 or 255).
    public static func contrast(_ percent: Int) throws(ImageError) -> ToneTablesTransformer {
        try ArgumentCheck.within(percent, -10_000...10_000, "contrast")
        let factor = (percent + 100) * (percent + 100) / 100
        let table = Self.table { factor * ($0 - 128) / 100 + 128 }
        return ToneTablesTransformer(table, table, table, name: "contrast,\(percent)")
    }

    /// Adds each channel its own percent of 255 (thumbor's `rgb(R,G,B)`); each -1000...1000.
    public static func channelOffsets(red: Int, green: Int, blue: Int) throws(ImageError) -> ToneTablesTransformer {
        for (value, name) in [(red, "red offset"), (green, "green offset"), (blue, "blue offset")] {
            try ArgumentCheck.within(value, -1000...1000, name)
        }
        return ToneTablesTransformer(
            Self.table { $0 + 255 * red / 100 }, Self.table { $0 + 255 * green / 100 },
            Self.table { $0 + 255 * blue / 100 }, name: "offsets,\(red),\(green),\(blue)")
    }

    /// Moves each channel that many percent of the way toward `color`'s (thumbor's `colorize(R,G,B,COLOR)`);
    /// 0...1000000 percent (past 100 overshoots, clamped).
    public static func colorize(red: Int, green: Int, blue: Int, toward color: RGBAColor) throws(ImageError)
        -> ToneTablesTransformer
    {
        for (value, name) in [(red, "red percent"), (green, "green percent"), (blue, "blue percent")] {
            try ArgumentCheck.within(value, 0...1_000_000, name)
        }
        func toward(_ target: UInt8, by percent: Int) -> [UInt8] {
            Self.table { value in
                Int(
                    ((Double(value) * (100.0 - Double(percent)) + Double(target) * Double(percent)) / 100.0)
                        .rounded(.towardZero))
            }
        }
        return ToneTablesTransformer(
            toward(color.red, by: red), toward(color.green, by: green), toward(color.blue, by: blue),
            name: "colorize,\(red),\(green),\(blue),\(color.red),\(color.green),\(color.blue)")
    }

    /// Tone curves: `all` for every channel, then each channel's own (thumbor's `curve(...)`), each a natural cubic
    /// spline through its points (`x` strictly rising, both in 0...255; an empty list is the identity).
    public static func toneCurves(
        all: [(x: Int, y: Int)], red: [(x: Int, y: Int)] = [], green: [(x: Int, y: Int)] = [],
        blue: [(x: Int, y: Int)] = []
    ) throws(ImageError) -> ToneTablesTransformer {
        let curves = [all, red, green, blue]
        for points in curves {
            var previous = -1
            for point in points {
                try ArgumentCheck.within(point.x, 0...255, "curve x")
                try ArgumentCheck.within(point.y, 0...255, "curve y")
                guard point.x > previous else { throw ArgumentCheck.invalid("curve x", "rise", String(point.x)) }
                previous = point.x
            }
        }
        let identity = [(x: 0, y: 0), (x: 255, y: 255)]
        let overall = ToneCurve.spline(all.isEmpty ? identity : all)
        func composed(_ points: [(x: Int, y: Int)]) -> [UInt8] {
            ToneCurve.spline(points.isEmpty ? identity : points).map { overall[Int($0)] }
        }
        let (r, g, b) = (composed(red), composed(green), composed(blue))
        return ToneTablesTransformer(r, g, b, name: "curves," + Self.digest(r + g + b))
    }

    // MARK: Helpers

    /// The 256 results of `map` (Swift's integer division truncates toward zero, as C's does), clamped to a byte.
    static func table(_ map: (Int) -> Int) -> [UInt8] { (0...255).map { UInt8(min(max(map($0), 0), 255)) } }

    /// `table` for 16-bit samples: each level v / 257 mapped by linear interpolation between the two nearest
    /// entries, back to 16 bits.
    private static func widened(_ table: [UInt8]) -> [UInt16] {
        (0...65_535).map { value -> UInt16 in
            let low = value / 257
            let fraction = value % 257
            guard fraction != 0, low < 255 else { return UInt16(table[low]) * 257 }
            let from = Int(table[low]) * 257
            let to = Int(table[low + 1]) * 257
            return UInt16(from + (to - from) * fraction / 257)
        }
    }

    /// A short, stable digest of table bytes (FNV-1a, 64 bits, hexadecimal) for keys.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
