import WICore
import WITransform

extension ThumborFilters {
    /// `blur(R)` or `blur(R,S)`: thumbor's Gaussian blur of integer radius R (the kernel's half width) and standard
    /// deviation S (0 or absent: R); WITransform's `ConvolutionTransformer.gaussianBlur`. Lenient, as thumbor's
    /// `apply_blur`: a radius above 150 is 150 while S (when absent) stays the radius asked, and S counts by its
    /// size (up to 1e150, the transformer's limit; thumbor's bytes change with every sigma, so none is clamped).
    struct Blur: ThumborFilter {
        static let name = "blur"
        /// thumbor's MAX_RADIUS.
        static let maximumRadius = 150
        var radius: Int
        var sigma: Double

        init(radius: Int, sigma: Double) {
            self.radius = radius
            self.sigma = sigma
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...2)
            if arguments.strict {
                radius = try arguments.integer(0, 0...Self.maximumRadius)
                sigma = arguments.count == 2 ? try arguments.real(1, 0...150) : 0
                return
            }
            // thumbor: sigma = sigma or radius, then radius = min(radius, 150); its Gaussian squares the sigma.
            let asked = try arguments.integer(0, 0...Int.max)
            let given = arguments.count == 2 ? abs(try arguments.real(1, -1e150...1e150)) : 0
            radius = min(asked, Self.maximumRadius)
            sigma = given == 0 && asked > Self.maximumRadius ? Double(asked) : given
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            radius == 0 ? nil : try ConvolutionTransformer.gaussianBlur(radius: radius, sigma: sigma)
        }

        var workingBytesPerPixel: Int { 12 }
        var description: String { "blur(radius: \(radius), sigma: \(String(reflecting: sigma)))" }
    }
}
