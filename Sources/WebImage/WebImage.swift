// The umbrella: one import for WICore and every plugin, and ready-made registries for apps that want everything.
@_exported import WICore
@_exported import WICacheDisk
@_exported import WICacheMemory
@_exported import WICacheRedis
@_exported import WICoderGIF
@_exported import WICoderHEIC
@_exported import WICoderJPEG
@_exported import WICoderPNG
@_exported import WICoderWebP
@_exported import WILoaderCurl
@_exported import WITransform

/// Ready-made configurations built from every plugin this package ships.
///
/// Thread safety: every call returns new, independent objects.
public enum WebImage {
    /// A coders manager with every coder this package ships, in priority order.
    /// Also installs WITransform's pixman resampler, so the coders' thumbnails resize with pixman.
    public static func makeCoders() -> ImageCodersManager {
        PixmanResampler.install()
        return ImageCodersManager(coders: [PNGCoder(), JPEGCoder(), HEIFCoder()])
    }
}
