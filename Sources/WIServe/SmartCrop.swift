import WICore

/// `smart/`'s content-aware crop.
enum SmartCrop {
    /// The transformer that scales to cover `width` x `height` and keeps the most interesting window.
    static func transformer(width: Int, height: Int) throws(ImageError) -> any ImageTransformer {
        throw ImageError(.invalidArgument, "smart/ is not available in this build")
    }
}
