import WICore

/// The output geometry of a thumbor request for a source size: which source window to take, the size it is
/// scaled to, and (with `fit-in` and `fill()`) the canvas it is centred on.
///
/// Thread safety: a value type; safe to send and share.
struct ThumborGeometry: Equatable, Sendable {
    /// The source rectangle used (after the manual crop and the fill crop), in source pixels.
    var window: (x: Int, y: Int, width: Int, height: Int)
    /// The size the window is scaled to.
    var scaled: PixelSize
    /// The canvas size when the result is centred on a background (`fit-in` with `fill()`), else nil.
    var canvas: PixelSize?

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.window == rhs.window && lhs.scaled == rhs.scaled && lhs.canvas == rhs.canvas
    }

    /// The geometry for `request` on a source of `source` pixels; throws `.invalidArgument` for a crop outside
    /// the image.
    static func make(for request: ThumborRequest, source: PixelSize, noUpscale: Bool, fill: Bool)
        throws(ImageError) -> ThumborGeometry
    {
        var window = (x: 0, y: 0, width: source.width, height: source.height)
        if let crop = request.crop {
            let left = min(crop.left, source.width), top = min(crop.top, source.height)
            let right = min(crop.right, source.width), bottom = min(crop.bottom, source.height)
            guard right > left, bottom > top else {
                throw ImageError(.invalidArgument, "crop \(crop.left)x\(crop.top):\(crop.right)x\(crop.bottom) lies outside the \(source) image")
            }
            window = (left, top, right - left, bottom - top)
        }
        let sw = Double(window.width), sh = Double(window.height)
        func side(_ side: ThumborRequest.Side, original: Int) -> Int {
            switch side {
            case .original: original
            case .pixels(let value): value
            }
        }
        let requestedWidth = side(request.width, original: window.width)
        let requestedHeight = side(request.height, original: window.height)
        if requestedWidth == 0 && requestedHeight == 0 {
            return ThumborGeometry(window: window, scaled: PixelSize(width: window.width, height: window.height), canvas: nil)
        }
        let ratioX = requestedWidth == 0 ? nil : Double(requestedWidth) / sw
        let ratioY = requestedHeight == 0 ? nil : Double(requestedHeight) / sh
        if request.fitIn || ratioX == nil || ratioY == nil {
            // Fit inside the box (a free side follows the aspect ratio).
            var ratio = min(ratioX ?? .infinity, ratioY ?? .infinity)
            if noUpscale { ratio = min(ratio, 1) }
            let scaled = PixelSize(width: max(1, Int((sw * ratio).rounded())), height: max(1, Int((sh * ratio).rounded())))
            let canvas = request.fitIn && fill
                ? PixelSize(width: requestedWidth == 0 ? scaled.width : requestedWidth,
                            height: requestedHeight == 0 ? scaled.height : requestedHeight)
                : nil
            return ThumborGeometry(window: window, scaled: scaled, canvas: canvas)
        }
        // Fill: scale to cover the box, then take the box out of the source by the alignment.
        guard let ratioX, let ratioY else { return ThumborGeometry(window: window, scaled: source, canvas: nil) }
        var ratio = max(ratioX, ratioY)
        var outputWidth = requestedWidth, outputHeight = requestedHeight
        if noUpscale, ratio > 1 {
            ratio = 1
            outputWidth = min(outputWidth, window.width)
            outputHeight = min(outputHeight, window.height)
        }
        let cropWidth = min(window.width, max(1, Int((Double(outputWidth) / ratio).rounded())))
        let cropHeight = min(window.height, max(1, Int((Double(outputHeight) / ratio).rounded())))
        let x: Int = switch request.horizontalAlignment {
        case .left: 0
        case .center: (window.width - cropWidth) / 2
        case .right: window.width - cropWidth
        }
        let y: Int = switch request.verticalAlignment {
        case .top: 0
        case .middle: (window.height - cropHeight) / 2
        case .bottom: window.height - cropHeight
        }
        return ThumborGeometry(window: (window.x + x, window.y + y, cropWidth, cropHeight),
                               scaled: PixelSize(width: outputWidth, height: outputHeight), canvas: nil)
    }
}
