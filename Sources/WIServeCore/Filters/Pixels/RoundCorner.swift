import WICore
import WITransform

extension ThumborFilters {
    /// `round_corner(R,r,g,b)` or `round_corner(R,r,g,b,1)`: corners of radius R painted in the colour, or left
    /// transparent when the fifth argument is 1 / true.
    struct RoundCorner: ThumborFilter {
        static let name = "round_corner"
        var radius: Double
        var color: RGBAColor
        var transparent: Bool

        init(radius: Double, color: RGBAColor, transparent: Bool) {
            self.radius = radius
            self.color = color
            self.transparent = transparent
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(4...5)
            guard let radius = Double(arguments[0]), radius.isFinite,
                (0...Double(ThumborRequest.maximumNumber)).contains(radius)
            else {
                throw arguments.failure(
                    "argument 1 must be a radius in 0...\(ThumborRequest.maximumNumber), got '\(arguments[0])'")
            }
            self.radius = radius
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
            // The corners painted in the colour unless transparent (Pillow's paste arithmetic).
            PipelineTransformer(
                [try RoundCornerTransformer(radius: radius)]
                    + (transparent ? [] : [try CanvasTransformer(color: color)]))
        }

        var description: String {
            "roundCorner(radius: \(String(reflecting: radius)), color: \(String(reflecting: color)), transparent: \(transparent))"
        }
    }
}
