import WICore
import WITransform

/// thumbor's `meta/` answer: the JSON of what a URL does to its source, as thumbor 7.8's JSON engine writes it (key
/// for key, in its order): the source (the URL as written, and, as thumbor reports them, the size and frame count
/// of the image after every operation and filter), the operations in order (`crop` with the corners of each cut:
/// `trim`'s, the manual crop's, the fill crop's relative to it; `resize`; `flip_horizontally`, `flip_vertically`),
/// the target (the last crop's or resize's size, else the image's), and the alignment's focal point on the
/// trimmed and manually cropped image. With `smart/`, the operations are this service's own: the attention crop
/// scales first (`resize`), then cuts its window (`crop`). Numbers are integers where thumbor writes some as
/// `100.0`: the same values to a JSON reader.
///
/// Thread safety: a value type; safe to send and share.
struct ThumborMeta: Sendable {
    /// One recorded operation.
    enum Operation: Equatable, Sendable {
        case crop(PixelRect)
        case resize(PixelSize)
        case flipHorizontally, flipVertically
    }

    var url: String
    /// The image after everything (thumbor's `source`).
    var finalSize: PixelSize
    var frameCount: Int
    var operations: [Operation]
    var focalPoint: (x: Int, y: Int)

    /// The meta of `transformer`'s request on `loaded`, whose transformed image is `final`.
    init(url: String, transformer: ThumborTransformer, loaded: Image, final: Image) throws(ImageError) {
        let prepared = try transformer.prepare(loaded)
        let (image, request, geometry) = (prepared.image, prepared.request, prepared.geometry)
        var operations: [Operation] = []
        if let trimmed = prepared.trimmed { operations.append(.crop(trimmed)) }
        let manual = ThumborGeometry.manualWindow(request.crop, source: image.size)
        if manual != PixelRect(size: image.size) { operations.append(.crop(manual)) }
        if request.smart {
            let base = manual.size
            let kept =
                request.fitIn || geometry.canvas != nil
                || base.width * geometry.scaled.height == base.height * geometry.scaled.width
            if kept {
                if geometry.scaled != base { operations.append(.resize(geometry.scaled)) }
            } else {
                let attention = try AttentionCropTransformer(
                    width: geometry.scaled.width, height: geometry.scaled.height)
                let placement = try attention.placement(for: try CropTransformer(manual).transform(image))
                operations.append(.resize(placement.scaledSize))
                operations.append(
                    .crop(
                        PixelRect(
                            x: placement.x, y: placement.y, width: geometry.scaled.width,
                            height: geometry.scaled.height)))
            }
        } else {
            let window = geometry.window
            if window != manual {
                operations.append(
                    .crop(
                        PixelRect(
                            x: window.x - manual.x, y: window.y - manual.y, width: window.width,
                            height: window.height)))
            }
            if geometry.scaled != window.size { operations.append(.resize(geometry.scaled)) }
        }
        if request.flipHorizontally { operations.append(.flipHorizontally) }
        if request.flipVertically { operations.append(.flipVertically) }
        let horizontal: Double =
            switch request.horizontalAlignment {
            case .left: 0
            case .center: 0.5
            case .right: 1
            }
        let vertical: Double =
            switch request.verticalAlignment {
            case .top: 0
            case .middle: 0.5
            case .bottom: 1
            }
        self.url = url
        finalSize = final.size
        frameCount = final.frameCount
        self.operations = operations
        focalPoint = (Int(Double(manual.width) * horizontal), Int(Double(manual.height) * vertical))
    }

    /// The size the last crop or resize leaves, else the final image's (thumbor's `target`).
    var target: PixelSize {
        var size = finalSize
        for operation in operations {
            switch operation {
            case .crop(let rect): size = rect.size
            case .resize(let scaled): size = scaled
            case .flipHorizontally, .flipVertically: break
            }
        }
        return size
    }

    /// The JSON text, in thumbor's key order.
    var json: String {
        let operations = self.operations.map { operation -> String in
            switch operation {
            case .crop(let rect):
                "{\"type\": \"crop\", \"left\": \(rect.x), \"top\": \(rect.y), \"right\": \(rect.x + rect.width), "
                    + "\"bottom\": \(rect.y + rect.height)}"
            case .resize(let size): "{\"type\": \"resize\", \"width\": \(size.width), \"height\": \(size.height)}"
            case .flipHorizontally: "{\"type\": \"flip_horizontally\"}"
            case .flipVertically: "{\"type\": \"flip_vertically\"}"
            }
        }
        let target = self.target
        return "{\"thumbor\": {\"source\": {\"url\": \(url.jsonQuoted), \"width\": \(finalSize.width), "
            + "\"height\": \(finalSize.height), \"frameCount\": \(frameCount)}, "
            + "\"operations\": [\(operations.joined(separator: ", "))], "
            + "\"target\": {\"width\": \(target.width), \"height\": \(target.height)}, "
            + "\"focal_points\": [{\"x\": \(focalPoint.x), \"y\": \(focalPoint.y), \"z\": 1.0, \"height\": 1, "
            + "\"width\": 1, \"origin\": \"alignment\"}]}}"
    }
}
