import WICore
import WITransform

extension ThumborFilters {
    /// `brightness(N)`: N percent of 255 added to red, green and blue (thumbor's range is -100...100; up to
    /// +-1000 is taken, and saturates as in thumbor; lenient: beyond is +-1000, the same saturation).
    struct Brightness: ThumborFilter {
        static let name = "brightness"
        var amount: Int

        init(_ amount: Int) { self.amount = amount }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            amount = try arguments.integer(0, -1000...1000, clampedWhenLenient: true)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try ToneTablesTransformer.brightness(amount)
        }

        var description: String { "brightness(\(amount))" }
    }

    /// `contrast(N)`: red, green and blue moved away from (N > 0) or towards (N < 0) 128. Lenient: up to
    /// +-10000 as thumbor computes it, beyond that +-10000 (every level but 128 is 0 or 255 either way).
    struct Contrast: ThumborFilter {
        static let name = "contrast"
        var amount: Int

        init(_ amount: Int) { self.amount = amount }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            amount = try arguments.integer(
                0, arguments.strict ? -1000...1000 : -10_000...10_000, clampedWhenLenient: true)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try ToneTablesTransformer.contrast(amount)
        }

        var description: String { "contrast(\(amount))" }
    }

    /// `rgb(R,G,B)`: each channel's own `brightness` (lenient: beyond +-1000 is +-1000).
    struct RGB: ThumborFilter {
        static let name = "rgb"
        var red: Int, green: Int, blue: Int

        init(red: Int, green: Int, blue: Int) {
            (self.red, self.green, self.blue) = (red, green, blue)
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(3...3)
            red = try arguments.integer(0, -1000...1000, clampedWhenLenient: true)
            green = try arguments.integer(1, -1000...1000, clampedWhenLenient: true)
            blue = try arguments.integer(2, -1000...1000, clampedWhenLenient: true)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try ToneTablesTransformer.channelOffsets(red: red, green: green, blue: blue)
        }

        var description: String { "rgb(red: \(red), green: \(green), blue: \(blue))" }
    }

    /// `colorize(R%,G%,B%,RRGGBB)`: each channel moved that many percent of the way to the fill colour's.
    /// Lenient: up to 1000000 percent as thumbor computes it, beyond that 1000000 (the same clamped levels).
    struct Colorize: ThumborFilter {
        static let name = "colorize"
        var red: Int, green: Int, blue: Int
        var fill: RGBAColor

        init(red: Int, green: Int, blue: Int, fill: RGBAColor) {
            (self.red, self.green, self.blue, self.fill) = (red, green, blue, fill)
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(4...4)
            let hex = arguments[3]
            guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else {
                throw arguments.failure("argument 4 must be a colour as RRGGBB, got '\(hex)'")
            }
            fill = RGBAColor(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
            let range = arguments.strict ? 0...1000 : 0...1_000_000
            red = try arguments.integer(0, range, clampedWhenLenient: arguments.isUnsigned(0))
            green = try arguments.integer(1, range, clampedWhenLenient: arguments.isUnsigned(1))
            blue = try arguments.integer(2, range, clampedWhenLenient: arguments.isUnsigned(2))
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try ToneTablesTransformer.colorize(red: red, green: green, blue: blue, toward: fill)
        }

        var description: String {
            "colorize(red: \(red), green: \(green), blue: \(blue), fill: \(String(reflecting: fill)))"
        }
    }

    /// `curve([(x,y),...],[...],[...],[...])`: tone curves through the points (natural cubic splines), for all
    /// channels after each channel's own (red, green, blue).
    struct Curve: ThumborFilter {
        static let name = "curve"
        var all: [ThumborCurvePoint], red: [ThumborCurvePoint], green: [ThumborCurvePoint], blue: [ThumborCurvePoint]

        init(all: [ThumborCurvePoint], red: [ThumborCurvePoint], green: [ThumborCurvePoint], blue: [ThumborCurvePoint])
        {
            (self.all, self.red, self.green, self.blue) = (all, red, green, blue)
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(4...4)
            var curves: [[ThumborCurvePoint]] = []
            for (index, argument) in arguments.values.enumerated() {
                guard let points = ThumborCurvePoint.list(argument) else {
                    throw arguments.failure(
                        "argument \(index + 1) must be points [(x,y),...] with x rising from 0 to 255 "
                            + "and y in 0...255, got '\(argument)'")
                }
                curves.append(points)
            }
            (all, red, green, blue) = (curves[0], curves[1], curves[2], curves[3])
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try ToneTablesTransformer.toneCurves(
                all: all.map { ($0.x, $0.y) }, red: red.map { ($0.x, $0.y) },
                green: green.map { ($0.x, $0.y) }, blue: blue.map { ($0.x, $0.y) })
        }

        var description: String {
            "curve(all: \(String(reflecting: all)), red: \(String(reflecting: red)), "
                + "green: \(String(reflecting: green)), blue: \(String(reflecting: blue)))"
        }
    }
}
