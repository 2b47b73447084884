import WICore

/// The output geometry of a thumbor request for a source size: which source window to take, the size it is
/// scaled to, and (with `fit-in` and `fill()`) the canvas it is centred on. Computed as thumbor 7.8's transformer
/// computes it, roundings included (checked against a thumbor server on 1,080 paths, ServeGeometryTests).
///
/// Thread safety: a value type; safe to send and share.
struct ThumborGeometry: Equatable, Sendable {
    /// The source rectangle used (after the manual crop and the fill crop), in source pixels.
    var window: PixelRect
    /// The size the window is scaled to.
    var scaled: PixelSize
    /// The canvas size when the result is centred on a background (`fit-in` with `fill()`), else nil.
    var canvas: PixelSize?
    /// thumbor's requested size after the resize (0: a free side), which `upscale()` enlarges to and `fill()`
    /// fills: the box as asked (turned by `adaptive-`), or the scaled size where `full-fit-in` made it larger.
    var box = PixelSize(width: 0, height: 0)

    /// The geometry for `request` on a source of `source` pixels (`loaded`: the size before `trim`, which
    /// `no_upscale()` caps at). A manual crop that leaves nothing of the image is ignored, as thumbor ignores it.
    static func make(for request: ThumborRequest, source: PixelSize, loaded: PixelSize? = nil, fill: Bool)
        -> ThumborGeometry
    {
        var window = manualWindow(request.crop, source: source)
        // no_upscale() caps the requested sides at the source's (thumbor: after loading, before trim or crop).
        let noUpscale = request.filters.contains(ThumborFilters.NoUpscale.self)
        let loaded = loaded ?? source
        func requested(_ side: ThumborRequest.Side, original: Int, source: Int) -> Int {
            switch side {
            case .original: original
            case .pixels(let value): noUpscale ? min(value, source) : value
            }
        }
        var requestedWidth = requested(request.width, original: window.width, source: loaded.width)
        var requestedHeight = requested(request.height, original: window.height, source: loaded.height)
        let sw = Double(window.width)
        let sh = Double(window.height)
        // The target size: a free side follows the aspect ratio (rounded half to even, as Python's round).
        var targetWidth = sw
        var targetHeight = sh
        if requestedWidth != 0 || requestedHeight != 0 {
            targetWidth =
                requestedWidth != 0
                ? Double(requestedWidth) : (Double(requestedHeight) * sw / sh).rounded(.toNearestOrEven)
            targetHeight =
                requestedHeight != 0
                ? Double(requestedHeight) : (Double(requestedWidth) * sh / sw).rounded(.toNearestOrEven)
        }
        targetWidth = max(1, targetWidth)
        targetHeight = max(1, targetHeight)
        let whole = window.size

        guard request.fitIn else {
            // Fill: crop to the target's aspect ratio around the alignment (unless stretch()), then resize.
            if !request.filters.contains(ThumborFilters.Stretch.self) {
                window = autoCrop(window, target: (targetWidth, targetHeight), request: request)
            }
            let scaled =
                targetWidth == Double(window.width) && targetHeight == Double(window.height)
                ? window.size
                : PixelSize(width: Int(targetWidth), height: Int(targetHeight))
            return ThumborGeometry(
                window: window, scaled: scaled, canvas: nil,
                box: PixelSize(width: requestedWidth, height: requestedHeight))
        }

        // fit-in: adaptive turns the box to the source's orientation; full covers it instead of fitting inside.
        if request.adaptiveFitIn, (sw < sh && targetWidth > targetHeight) || (sw > sh && targetWidth < targetHeight) {
            swap(&targetWidth, &targetHeight)
            swap(&requestedWidth, &requestedHeight)
        }
        func geometry(_ scaled: PixelSize, box: PixelSize) -> ThumborGeometry {
            let canvas = PixelSize(
                width: box.width == 0 ? scaled.width : box.width,
                height: box.height == 0 ? scaled.height : box.height)
            return ThumborGeometry(window: window, scaled: scaled, canvas: fill ? canvas : nil, box: box)
        }
        let sign = request.fullFitIn ? -1.0 : 1.0
        if !request.fullFitIn, targetWidth >= sw, targetHeight >= sh {
            // Fits already: kept as it is (`upscale()` may enlarge it later).
            return geometry(whole, box: PixelSize(width: requestedWidth, height: requestedHeight))
        }
        let scaled: PixelSize
        if sw / targetWidth * sign >= sh / targetHeight * sign {
            scaled = PixelSize(
                width: Int(targetWidth),
                height: max(1, Int((sh * targetWidth / sw + 1e-5).rounded(.toNearestOrEven))))
        } else {
            scaled = PixelSize(
                width: max(1, Int((sw * targetHeight / sh + 1e-5).rounded(.toNearestOrEven))),
                height: Int(targetHeight))
        }
        return geometry(
            scaled,
            box: PixelSize(
                width: max(requestedWidth, scaled.width),
                height: max(requestedHeight, scaled.height)))
    }

    /// The manual crop's window: its corners clamped to the image, the whole image when that leaves nothing.
    static func manualWindow(_ crop: ThumborRequest.CropBox?, source: PixelSize) -> PixelRect {
        guard let crop else { return PixelRect(size: source) }
        func clamp(_ value: Int, _ limit: Int) -> Int { min(max(value, 0), limit) }
        let left = clamp(crop.left, source.width)
        let top = clamp(crop.top, source.height)
        let right = clamp(crop.right, source.width)
        let bottom = clamp(crop.bottom, source.height)
        guard right > left, bottom > top else { return PixelRect(size: source) }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The centre of mass of the `focal()` rectangles (each weighted by its area, floored as thumbor's `//`), in
    /// window coordinates; with a manual crop only the centres inside it count. Nil when there are none.
    private static func focus(of request: ThumborRequest, window: PixelRect)
        -> (Double, Double)?
    {
        var total = (x: 0.0, y: 0.0, weight: 0.0)
        for box in request.filters.of(ThumborFilters.Focal.self).map(\.box) {
            let width = box.right - box.left
            let height = box.bottom - box.top
            guard width > 0, height > 0 else { continue }
            var x = box.left + width / 2
            var y = box.top + height / 2
            if request.crop != nil {
                guard (window.x...(window.x + window.width)).contains(x),
                    (window.y...(window.y + window.height)).contains(y)
                else { continue }
                x -= window.x
                y -= window.y
            }
            let weight = Double(width * height)
            total = (total.x + Double(x) * weight, total.y + Double(y) * weight, total.weight + weight)
        }
        guard total.weight > 0 else { return nil }
        return ((total.x / total.weight).rounded(.down), (total.y / total.weight).rounded(.down))
    }

    /// thumbor's `auto_crop`: nothing when the aspect ratios agree to two decimals; else the full width or height
    /// of the window, centred on the `focal()` points (else the alignment's) and kept inside the window.
    private static func autoCrop(
        _ window: PixelRect, target: (Double, Double),
        request: ThumborRequest
    ) -> PixelRect {
        let sw = Double(window.width)
        let sh = Double(window.height)
        let (targetWidth, targetHeight) = target
        func twoDecimals(_ value: Double) -> Double { (value * 100).rounded(.toNearestOrEven) / 100 }
        guard twoDecimals(sw / sh) != twoDecimals(targetWidth / targetHeight) else { return window }
        let alignedX: Double =
            switch request.horizontalAlignment {
            case .left: 0
            case .center: (sw * 0.5).rounded(.down)
            case .right: sw
            }
        let alignedY: Double =
            switch request.verticalAlignment {
            case .top: 0
            case .middle: (sh * 0.5).rounded(.down)
            case .bottom: sh
            }
        let (focusX, focusY) = focus(of: request, window: window) ?? (alignedX, alignedY)
        let cropWidth: Double
        let cropHeight: Double
        if targetWidth / sw > targetHeight / sh {
            cropWidth = sw
            cropHeight = (sw * targetHeight / targetWidth).rounded(.toNearestOrEven)
        } else {
            cropWidth = (targetWidth * sh / targetHeight).rounded(.up).rounded(.toNearestOrEven)
            cropHeight = sh
        }
        let left = min(max(focusX - cropWidth / 2, 0), sw - cropWidth).rounded(.toNearestOrEven)
        let top = min(max(focusY - cropHeight / 2, 0), sh - cropHeight).rounded(.toNearestOrEven)
        let right = min(left + cropWidth, sw)
        let bottom = min(top + cropHeight, sh)
        return PixelRect(
            x: window.x + Int(left), y: window.y + Int(top), width: max(1, Int(right - left)),
            height: max(1, Int(bottom - top)))
    }
}
