import WICore
import WITransform

extension ThumborFilters {
    /// `rotate(DEG)`: a multiple of 90, turned counter-clockwise (thumbor's direction). Lenient: any other angle is
    /// skipped, as thumbor's filter skips it, and any multiple of 90 is taken, of any length (Python's integers).
    struct Rotate: ThumborFilter {
        static let name = "rotate"
        /// 0, 90, 180 or 270.
        var degrees: Int

        init(_ degrees: Int) { self.degrees = ((degrees % 360) + 360) % 360 }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            let degrees = try arguments.strict ? arguments.integer(0, -3600...3600) : Self.degreesModulo360(arguments)
            guard degrees % 90 == 0 else {
                throw arguments.failure("takes a multiple of 90 degrees, got \(arguments[0])")
            }
            self.init(degrees)
        }

        /// thumbor's Number (`-?digits`) of any length, modulo 360 (a multiple of 90 stays one).
        private static func degreesModulo360(_ arguments: ThumborFilterArguments) throws(ServeError) -> Int {
            let text = arguments[0]
            let negative = text.hasPrefix("-")
            let digits = negative ? text.dropFirst() : Substring(text)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw arguments.failure("argument 1 must be an integer, got '\(text)'")
            }
            let remainder = digits.reduce(0) { ($0 * 10 + Int($1.asciiValue! - 48)) % 360 }
            return negative ? -remainder : remainder
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            degrees == 0 ? nil : try RotateTransformer(degrees: Double(degrees), fitsCanvas: true)
        }

        var description: String { "rotate(\(degrees))" }
    }
}
