import WICore
import WITransform

/// The one table from a thumbor filter to what the plan does with it: where it acts (`Role`), the WITransform
/// transformer of a pixel filter (with thumbor 7.8's arithmetic, checked byte for byte in WITransform's tests), and
/// the working memory it needs. A new pixel filter is its case in `ThumborFilter`, its parser there, and its entry
/// here; `ThumborTransformer` runs the entries in URL order.
extension ThumborFilter {
    /// Where a filter acts.
    enum Role {
        /// On the pixels, by itself: `transformer(watermarks:)` gives its step.
        case pixels
        /// On the pixels, but through the geometry (the box, the fit, the focal point): `ThumborTransformer` and
        /// `ThumborGeometry` apply it.
        case geometry
        /// On the encoding only (`EncodePlan`): quality, format, metadata, size.
        case encoding
        /// On the answer's header fields only.
        case answer
    }

    var role: Role {
        switch self {
        case .blur, .rotate, .roundCorner, .brightness, .contrast, .rgb, .saturation, .grayscale, .colorize, .curve,
             .noise, .sharpen, .convolution, .backgroundColor, .watermark: .pixels
        case .noUpscale, .upscale, .proportion, .stretch, .focal, .fill: .geometry
        case .quality, .format, .stripEXIF, .stripICC, .maxBytes: .encoding
        case .maxAge: .answer
        }
    }

    /// Whether the filter changes pixels (and so joins the transformer's key).
    var changesPixels: Bool { role == .pixels || role == .geometry }

    /// The step of a `.pixels` filter, or nil when it changes nothing (`blur(0)`, `rotate(0)`) or is not one.
    /// `watermarks` holds the loaded images of the request's `watermark()` filters by URL.
    func transformer(watermarks: [String: Image] = [:]) throws(ImageError) -> (any ImageTransformer)? {
        switch self {
        case .rotate(let degrees) where degrees == 0: nil
        case .rotate(let degrees): try RotateTransformer(degrees: Double(degrees), fitsCanvas: true)
        case .blur(let radius, _) where radius == 0: nil
        case .blur(let radius, let sigma): try ConvolutionTransformer.gaussianBlur(radius: radius, sigma: sigma)
        case .roundCorner(let radius, let color, let transparent):
            // The corners painted in the colour unless transparent (Pillow's paste arithmetic).
            PipelineTransformer([try RoundCornerTransformer(radius: radius)]
                                + (transparent ? [] : [try CanvasTransformer(color: color)]))
        case .brightness(let amount): try ToneTablesTransformer.brightness(amount)
        case .contrast(let amount): try ToneTablesTransformer.contrast(amount)
        case .rgb(let red, let green, let blue): try ToneTablesTransformer.channelOffsets(red: red, green: green, blue: blue)
        case .colorize(let red, let green, let blue, let fill):
            try ToneTablesTransformer.colorize(red: red, green: green, blue: blue, toward: fill)
        case .curve(let all, let red, let green, let blue):
            try ToneTablesTransformer.toneCurves(all: all.map { ($0.x, $0.y) }, red: red.map { ($0.x, $0.y) },
                                                 green: green.map { ($0.x, $0.y) }, blue: blue.map { ($0.x, $0.y) })
        case .saturation(let change): try SaturationTransformer(change: change)
        case .grayscale: GrayscaleTransformer()
        case .noise(let amount, let seed):
            // Without a seed thumbor continues its process's sequence: any noise is as good, so a random seed.
            try NoiseTransformer(amount: amount, seed: seed > 0 ? UInt32(truncatingIfNeeded: seed) : UInt32.random(in: 1...UInt32.max))
        case .sharpen(let amount, let radius, let luminanceOnly):
            try WaveletSharpenTransformer(amount: amount, radius: radius, luminanceOnly: luminanceOnly)
        case .convolution(let weights, let columns, let normalize):
            try ConvolutionTransformer(weights: weights, columns: columns, normalize: normalize)
        case .backgroundColor(let color): try CanvasTransformer(color: color, blending: .composite)
        case .watermark(let mark): try Self.overlay(mark, watermarks: watermarks)
        case .quality, .format, .noUpscale, .upscale, .proportion, .stretch, .focal, .fill, .stripEXIF, .stripICC, .maxAge,
             .maxBytes: nil
        }
    }

    /// `watermark()`'s step, with its image loaded before the transform.
    private static func overlay(_ mark: ThumborWatermark, watermarks: [String: Image]) throws(ImageError) -> OverlayTransformer {
        guard let image = watermarks[mark.url] else {
            throw ImageError(.invalidArgument, "the watermark \(mark.url) was not loaded")
        }
        return try OverlayTransformer(image, identifier: mark.url, x: mark.x, y: mark.y, transparency: mark.transparency,
                                      maximumWidthPercent: mark.widthRatio, maximumHeightPercent: mark.heightRatio)
    }

    /// The working memory of the filter per pixel of a frame, beyond the frame in and out: sharpen 28 (five float
    /// planes and a copy; issue 34 measured 1.36 GB on 49 MP), convolution and blur 12, the others 8.
    var workingBytesPerPixel: Int {
        switch self {
        case .sharpen: 28
        case .convolution, .blur: 12
        default: 8
        }
    }
}
