import WICore
import WITransform

extension ThumborFilters {
    /// `sharpen(AMOUNT,RADIUS,LUMINANCE_ONLY)`: thumbor's wavelet sharpen (WITransform's `WaveletSharpenTransformer`).
    struct Sharpen: ThumborFilter {
        static let name = "sharpen"
        var amount: Double
        var radius: Double
        var luminanceOnly: Bool

        init(amount: Double, radius: Double, luminanceOnly: Bool) {
            (self.amount, self.radius, self.luminanceOnly) = (amount, radius, luminanceOnly)
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(3...3)
            luminanceOnly = try arguments.boolean(2)
            amount = try arguments.real(0, -100...100)
            radius = try arguments.real(1, 0...100)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try WaveletSharpenTransformer(amount: amount, radius: radius, luminanceOnly: luminanceOnly)
        }

        /// Five float planes and a copy (issue 34 measured 1.36 GB on 49 MP).
        var workingBytesPerPixel: Int { 28 }

        var description: String {
            "sharpen(amount: \(String(reflecting: amount)), radius: \(String(reflecting: radius)), luminanceOnly: \(luminanceOnly))"
        }
    }
}
