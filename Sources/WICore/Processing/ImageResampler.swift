import Synchronization

/// Resizes pixel buffers; coders call the registered one to finish a thumbnail after their own reduced decode.
///
/// WICore registers `AreaAverageResampler`; linking WITransform registers its pixman-backed resampler.
///
/// Thread safety: implementations must be callable from any thread at once.
public protocol ImageResampler: Sendable {
    /// `buffer` resized to exactly `size`, in the same pixel format.
    func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer
}

/// The process-wide resampler coders use.
///
/// Thread safety: reading and replacing are atomic with respect to each other.
public enum ImageResampling {
    private static let current = Mutex<any ImageResampler>(AreaAverageResampler())

    /// The resampler in use.
    public static var resampler: any ImageResampler { current.withLock { $0 } }

    /// Replaces the resampler in use (WITransform does this when an app links it).
    public static func register(_ resampler: any ImageResampler) {
        current.withLock { $0 = resampler }
    }
}
