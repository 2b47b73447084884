import WICore
import WITransform

extension ThumborFilters {
    /// `rotate(DEG)`: a multiple of 90, turned counter-clockwise (thumbor's direction). Lenient: any other angle is
    /// skipped, as thumbor's filter skips it, and any multiple of 90 is taken.
    struct Rotate: ThumborFilter {
        static let name = "rotate"
        /// 0, 90, 180 or 270.
        var degrees: Int

        init(_ degrees: Int) { self.degrees = ((degrees % 360) + 360) % 360 }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            let degrees = try arguments.integer(0, arguments.strict ? -3600...3600 : Int.min...Int.max)
            guard degrees % 90 == 0 else { throw arguments.failure("takes a multiple of 90 degrees, got \(degrees)") }
            self.init(degrees)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            degrees == 0 ? nil : try RotateTransformer(degrees: Double(degrees), fitsCanvas: true)
        }

        var description: String { "rotate(\(degrees))" }
    }
}
