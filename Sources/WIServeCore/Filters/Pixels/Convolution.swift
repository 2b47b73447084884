import WICore
import WITransform

extension ThumborFilters {
    /// `convolution(W1;W2;...,COLUMNS[,NORMALIZE])`: a kernel in rows of COLUMNS (both counts odd), normalized to
    /// sum 1 unless NORMALIZE is false (WITransform's `ConvolutionTransformer`).
    struct Convolution: ThumborFilter {
        static let name = "convolution"
        /// The most weights a kernel may have (thumbor has no limit; each weight costs a pass).
        static let maximumWeights = 625
        var weights: [Double]
        var columns: Int
        var normalize: Bool

        init(weights: [Double], columns: Int, normalize: Bool) {
            (self.weights, self.columns, self.normalize) = (weights, columns, normalize)
        }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(2...3)
            let items = arguments[0].split(separator: ";", omittingEmptySubsequences: false)
            let weights = items.compactMap { item -> Double? in
                guard !item.isEmpty, item.count <= 32,
                    item.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") })
                else { return nil }
                return Double(item).flatMap { $0.isFinite ? $0 : nil }
            }
            guard weights.count == items.count, weights.count <= Self.maximumWeights else {
                throw arguments.failure(
                    "argument 1 must be at most \(Self.maximumWeights) numbers separated by ';', got '\(arguments[0])'")
            }
            let columns = try arguments.integer(1, 1...Self.maximumWeights)
            let normalize = arguments.count == 3 ? try arguments.boolean(2) : true
            guard (try? ConvolutionTransformer(weights: weights, columns: columns, normalize: normalize)) != nil else {
                throw arguments.failure(
                    "needs an odd number of columns and of rows, got \(weights.count) weights in rows of \(columns)")
            }
            self.init(weights: weights, columns: columns, normalize: normalize)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            try ConvolutionTransformer(weights: weights, columns: columns, normalize: normalize)
        }

        var workingBytesPerPixel: Int { 12 }

        var description: String {
            "convolution(weights: \(String(reflecting: weights)), columns: \(columns), normalize: \(normalize))"
        }
    }
}
