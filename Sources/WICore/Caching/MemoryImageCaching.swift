/// The memory kind of cache: decoded images in process memory, limited by cost (bytes of pixels) and count.
///
/// WICacheMemory implements it; `TieredImageCache` puts one in front of the data tiers.
///
/// Thread safety: implementations must be safe to call from any number of threads at once, and fast: a hit is on
/// the hot path of every load.
public protocol MemoryImageCaching: Sendable {
    /// The image stored under `key`, or nil.
    func image(forKey key: String) -> Image?
    /// Stores `image` under `key` with its cost (`image.cost`); may refuse or evict to stay within limits.
    func setImage(_ image: Image, forKey key: String)
    /// Removes the image stored under `key`.
    func removeImage(forKey key: String)
    /// Removes every image.
    func removeAll()
}
