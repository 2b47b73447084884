import WICore
import WITransform

extension ThumborFilters {
    /// `blur(R)` or `blur(R,S)`: thumbor's Gaussian blur of integer radius R (the kernel's half width) and standard
    /// deviation S (0 or absent: R); WITransform's `ConvolutionTransformer.gaussianBlur`.
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
            radius = try arguments.integer(0, 0...Self.maximumRadius)
            sigma = arguments.count == 2 ? try arguments.real(1, 0...150) : 0
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            radius == 0 ? nil : try ConvolutionTransformer.gaussianBlur(radius: radius, sigma: sigma)
        }

        var workingBytesPerPixel: Int { 12 }
        var description: String { "blur(radius: \(radius), sigma: \(String(reflecting: sigma)))" }
    }
}
