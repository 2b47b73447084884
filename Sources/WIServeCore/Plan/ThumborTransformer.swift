import Synchronization
import WICore
import WITransform

/// Everything a thumbor URL does to the pixels, as one `ImageTransformer` for the pipeline: `trim`, the manual
/// crop, the fill crop or fit, the flips, then the filters in URL order (`rotate`, `blur`, `round_corner`, the
/// colour filters, `sharpen`, `convolution`, `background_color`, `watermark`, `upscale`, `proportion`, and `fill`'s
/// `fit-in` canvas). Built from WITransform's public transformers and thumbor's own arithmetic; the geometry is
/// decided per image, since it depends on the source size.
///
/// Thread safety: an immutable value; safe from any thread.
struct ThumborTransformer: ImageTransformer {
    /// The parsed request (its filters and geometry; the signature and URL are not part of the key).
    let request: ThumborRequest
    /// The output pixel limit (`--max-pixels`).
    let pixelLimit: Int
    /// The most memory the transform may need, estimated before it starts (`--max-request-memory`).
    var memoryLimit = Int.max
    /// Set when the transform starts: an error after it is the transform's, not the source's.
    var progress: TransformProgress?
    /// The images of the request's `watermark()` and `frame()` filters, by URL (loaded before the transform runs).
    var watermarks: [String: Image] = [:]
    /// thumbor's MAX_WIDTH and MAX_HEIGHT (`--max-width`, `--max-height`; 0: none): a larger requested side is
    /// capped, and a source past them is shrunk first (`normalized(_:crop:)`).
    var maxWidth = 0
    var maxHeight = 0

    var key: String {
        var parts: [String] = []
        if let trim = request.trim {
            parts.append("trim=\(trim.bottomRight ? "bottom-right" : "top-left"),\(trim.tolerance)")
        }
        if let crop = request.crop { parts.append("crop=\(crop.left),\(crop.top),\(crop.right),\(crop.bottom)") }
        let mode =
            !request.fitIn
            ? "fill" : "\(request.adaptiveFitIn ? "adaptive-" : "")\(request.fullFitIn ? "full-" : "")fit"
        parts.append("\(mode)=\(describe(request.width))x\(describe(request.height))")
        if request.flipHorizontally || request.flipVertically {
            parts.append("flip=\(request.flipHorizontally ? "h" : "")\(request.flipVertically ? "v" : "")")
        }
        parts.append("align=\(request.horizontalAlignment.rawValue),\(request.verticalAlignment.rawValue)")
        if request.smart { parts.append("smart") }
        if maxWidth > 0 || maxHeight > 0 { parts.append("max=\(maxWidth)x\(maxHeight)") }
        for filter in request.filters where filter.role.changesPixels { parts.append(filter.description) }
        return "Thumbor(\(parts.joined(separator: ";")))"
    }

    private func describe(_ side: ThumborRequest.Side) -> String {
        switch side {
        case .original: "orig"
        case .pixels(let value): String(value)
        }
    }

    /// The source as the geometry sees it: shrunk to the maximums, trimmed, with the request's crop in its
    /// coordinates, and the geometry decided on it.
    struct Prepared {
        var image: Image
        var request: ThumborRequest
        /// The window `trim` kept of the (shrunk) source, when it cut anything.
        var trimmed: PixelRect?
        var geometry: ThumborGeometry
    }

    /// The steps before the pixels change size: `cover()`'s first frame, the maximums (`normalized`), then `trim` (the manual crop's
    /// corners then count from the trimmed image's, thumbor's order), then the geometry.
    func prepare(_ loaded: Image) throws(ImageError) -> Prepared {
        var request = request
        let covered =
            request.filters.contains(ThumborFilters.Cover.self) ? try ThumborFilters.Cover.cover(of: loaded) : loaded
        let normal = try normalized(covered, request: &request)
        var image = normal
        var trimmed: PixelRect?
        if let trim = request.trim,
            // Past 510 (the farthest two colours can be) every tolerance keeps the same: clamped, not refused.
            let kept = try TrimTransformer(
                corner: trim.bottomRight ? .bottomRight : .topLeft,
                tolerance: min(trim.tolerance, 510)
            )
            .window(in: try normal.frame(at: 0).pixels)
        {
            image = try CropTransformer(kept).transform(normal)
            trimmed = kept
            if var crop = request.crop {
                crop = ThumborRequest.CropBox(
                    left: crop.left - kept.x, top: crop.top - kept.y,
                    right: crop.right - kept.x, bottom: crop.bottom - kept.y)
                request.crop = crop
            }
        }
        let fills = request.filters.contains(ThumborFilters.Fill.self)
        let geometry = ThumborGeometry.make(for: request, source: image.size, loaded: normal.size, fill: fills)
        return Prepared(image: image, request: request, trimmed: trimmed, geometry: geometry)
    }

    func transform(_ loaded: Image) throws(ImageError) -> Image {
        progress?.started.store(true, ordering: .relaxed)
        let prepared = try prepare(loaded)
        let (image, request, geometry) = (prepared.image, prepared.request, prepared.geometry)
        try checkLimit(geometry.canvas ?? geometry.scaled)
        try checkMemory(frames: image.frameCount, source: image.size, output: geometry.canvas ?? geometry.scaled)
        var steps: [any ImageTransformer] = []
        if request.smart {
            steps += try smartSteps(for: image.size, geometry: geometry, request: request)
        } else {
            let window = geometry.window
            if window != PixelRect(size: image.size) { steps.append(try CropTransformer(window)) }
            if geometry.scaled != window.size {
                steps.append(
                    try ResizeTransformer(width: geometry.scaled.width, height: geometry.scaled.height, mode: .fill))
            }
        }
        if request.flipHorizontally || request.flipVertically {
            steps.append(FlipTransformer(horizontal: request.flipHorizontally, vertical: request.flipVertically))
        }
        var result = try PipelineTransformer(steps).transform(image)
        var context = ThumborFilterContext(
            fitIn: request.fitIn, box: geometry.box, watermarks: watermarks,
            pixelLimit: pixelLimit)
        for filter in request.filters { result = try filter.apply(to: result, in: &context) }
        return result
    }

    /// thumbor's MAX_WIDTH and MAX_HEIGHT: a requested side past its maximum becomes the maximum (thumbor's
    /// handler), and a source past them is shrunk before anything else (its engine's `normalize`, rule and all:
    /// the side whose excess over its maximum is larger decides, only when that side has a maximum; equal excesses
    /// change nothing; the other side proportional, rounded half to even), a manual crop scaled with it (floor).
    private func normalized(_ loaded: Image, request: inout ThumborRequest) throws(ImageError) -> Image {
        guard maxWidth > 0 || maxHeight > 0 else { return loaded }
        if maxWidth > 0, case .pixels(let width) = request.width, width > maxWidth { request.width = .pixels(maxWidth) }
        if maxHeight > 0, case .pixels(let height) = request.height, height > maxHeight {
            request.height = .pixels(maxHeight)
        }
        let (width, height) = (loaded.width, loaded.height)
        guard width > maxWidth || height > maxHeight else { return loaded }
        let (widthExcess, heightExcess) = (width - maxWidth, height - maxHeight)
        let size: PixelSize
        if maxWidth > 0, widthExcess > heightExcess {
            let proportional = (Double(maxWidth) * Double(height) / Double(width)).rounded(.toNearestOrEven)
            size = PixelSize(width: maxWidth, height: max(1, Int(proportional)))
        } else if maxHeight > 0, heightExcess > widthExcess {
            let proportional = (Double(maxHeight) * Double(width) / Double(height)).rounded(.toNearestOrEven)
            size = PixelSize(width: max(1, Int(proportional)), height: maxHeight)
        } else {
            return loaded
        }
        if let crop = request.crop {
            request.crop = ThumborRequest.CropBox(
                left: crop.left * size.width / width, top: crop.top * size.height / height,
                right: crop.right * size.width / width, bottom: crop.bottom * size.height / height)
        }
        return try ResizeTransformer(width: size.width, height: size.height, mode: .fill).transform(loaded)
    }

    /// Refuses (413) a transform whose estimated peak memory passes `memoryLimit`, before any of it runs: every
    /// frame held twice (input and output, 4 bytes a pixel each), plus the costliest filter's working memory for
    /// one frame, all at the larger of the source and output sizes. Filters' bytes per pixel, from their buffers:
    /// sharpen 28 (five float planes and a copy; issue 34 measured 1.36 GB on 49 MP), convolution and blur 12,
    /// the others 8.
    private func checkMemory(frames: Int, source: PixelSize, output: PixelSize) throws(ImageError) {
        guard memoryLimit < Int.max else { return }
        let area = max(source.area, output.area)
        let perPixel = request.filters.map(\.workingBytesPerPixel).max() ?? 0
        let (held, overflowHeld) = area.multipliedReportingOverflow(by: 8 * max(1, frames))
        let (working, overflowWorking) = area.multipliedReportingOverflow(by: perPixel)
        let (total, overflow) = held.addingReportingOverflow(working)
        guard !overflowHeld, !overflowWorking, !overflow, total <= memoryLimit else {
            let need =
                overflowHeld || overflowWorking || overflow ? "more than addressable" : "about \(total >> 20) MiB"
            throw ImageError(
                .pixelLimitExceeded,
                "the request would need \(need), over the memory limit of \(memoryLimit >> 20) MiB")
        }
    }

    private func checkLimit(_ size: PixelSize) throws(ImageError) {
        try ThumborFilterContext.checkLimit(size, pixelLimit: pixelLimit)
    }

    /// `smart/`: the content-aware crop instead of the alignment (after the manual crop, if any).
    private func smartSteps(for source: PixelSize, geometry: ThumborGeometry, request: ThumborRequest)
        throws(ImageError) -> [any ImageTransformer]
    {
        var steps: [any ImageTransformer] = []
        let manual = ThumborGeometry.manualWindow(request.crop, source: source)
        let base = manual.size
        if base != source {
            steps.append(try CropTransformer(manual))
        }
        // `geometry.window` is the alignment's window; the attention crop chooses its own inside `base`.
        if request.fitIn || geometry.canvas != nil
            || base.width * geometry.scaled.height == base.height * geometry.scaled.width
        {
            // Nothing to choose: the whole window is kept.
            steps.append(
                try ResizeTransformer(width: geometry.scaled.width, height: geometry.scaled.height, mode: .fill))
        } else {
            steps.append(try AttentionCropTransformer(width: geometry.scaled.width, height: geometry.scaled.height))
        }
        return steps
    }
}

/// Whether a request's transform has started (the source was loaded and decoded by then).
///
/// Thread safety: an atomic flag.
final class TransformProgress: Sendable {
    let started = Atomic<Bool>(false)
}
