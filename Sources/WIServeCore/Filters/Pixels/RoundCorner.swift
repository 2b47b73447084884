import WICore
import WITransform

extension ThumborFilters {
    /// `round_corner(A[|B],r,g,b[,transparent])`: the outside of elliptical corners (horizontal radius A,
    /// vertical B, else A) painted in the colour, or made transparent; thumbor's own arithmetic byte for byte
    /// (WITransform's `CornerFillTransformer`). Radii are whole numbers, as thumbor's pattern takes them.
    struct RoundCorner: ThumborFilter {
        static let name = "round_corner"
        var horizontalRadius: Int
        var verticalRadius: Int
        var color: RGBAColor
        var transparent: Bool

        init(radius: Int, verticalRadius: Int? = nil, color: RGBAColor, transparent: Bool) {
            horizontalRadius = radius
            self.verticalRadius = verticalRadius ?? radius
            self.color = color
            self.transparent = transparent
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(4...5)
            let radii = arguments[0].split(separator: "|", omittingEmptySubsequences: false)
            let parsed = radii.compactMap { ThumborRequest.number($0) }
            guard (1...2).contains(radii.count), parsed.count == radii.count else {
                throw arguments.failure(
                    "argument 1 must be a radius A or A|B, whole numbers in 0...\(ThumborRequest.maximumNumber), "
                        + "got '\(arguments[0])'")
            }
            horizontalRadius = parsed[0]
            verticalRadius = parsed.count == 2 ? parsed[1] : parsed[0]
            let red = try arguments.integer(1, 0...255)
            let green = try arguments.integer(2, 0...255)
            let blue = try arguments.integer(3, 0...255)
            color = RGBAColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
            transparent = false
            if arguments.count == 5 {
                switch arguments[4].lowercased() {
                case "1", "true": transparent = true
                case "0", "false": transparent = false
                default: throw arguments.failure("argument 5 must be 1, 0, true or false, got '\(arguments[4])'")
                }
            }
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try CornerFillTransformer(
                horizontalRadius: horizontalRadius, verticalRadius: verticalRadius, color: color,
                transparent: transparent)
        }

        var description: String {
            "roundCorner(\(horizontalRadius)|\(verticalRadius), color: \(String(reflecting: color)), "
                + "transparent: \(transparent))"
        }
    }
}
