import WICore
import WITransform

extension ThumborFilters {
    /// `watermark(URL,X,Y,ALPHA[,W_RATIO[,H_RATIO]])`: another image over every frame (see `ThumborWatermark`),
    /// loaded before the transform.
    struct Watermark: ThumborFilter {
        static let name = "watermark"
        var mark: ThumborWatermark

        init(_ mark: ThumborWatermark) { self.mark = mark }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            mark = try ThumborWatermark(arguments: arguments.values)
        }

        func transformer(watermarks: [String: Image]) throws(ImageError) -> (any ImageTransformer)? {
            guard let image = watermarks[mark.url] else {
                throw ImageError(.invalidArgument, "the watermark \(mark.url) was not loaded")
            }
            return try OverlayTransformer(
                image, identifier: mark.url, x: mark.x, y: mark.y, transparency: mark.transparency,
                maximumWidthPercent: mark.widthRatio, maximumHeightPercent: mark.heightRatio)
        }

        var description: String { "watermark(\(String(reflecting: mark)))" }
    }
}
