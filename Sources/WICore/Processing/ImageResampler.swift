/// Resizes pixel buffers; coders call the one their options carry to finish a thumbnail after their own reduced
/// decode, and to scale down before encoding.
///
/// There is no process-wide resampler: `DecodeOptions.resampler` and `EncodeOptions.resampler` name it per call,
/// and an `ImageCodersManager` built with one fills it into options that name none. Unset, coders use WICore's
/// `ImageCoding.AreaAverageResampler`; WITransform's `PixmanResampler` is the faster one.
///
/// ```swift
/// let coders = ImageCodersManager(coders: [PNGCoder()], resampler: PixmanResampler())
/// ```
///
/// Thread safety: implementations must be callable from any thread at once.
public protocol ImageResampler: Sendable {
    /// `buffer` resized to exactly `size`, in the same pixel format.
    func resample(_ buffer: PixelBuffer, to size: PixelSize) throws(ImageError) -> PixelBuffer
}

/// What makes two optional resamplers the same for options' equality: the dynamic type, plus the value when it is
/// `Hashable` (or the instance when it is a class). nil (unset) is a resampler of its own.
struct ResamplerIdentity: Hashable {
    private let type: ObjectIdentifier?
    private let value: AnyHashable?

    init(_ resampler: (any ImageResampler)?) {
        guard let resampler else {
            (type, value) = (nil, nil)
            return
        }
        type = ObjectIdentifier(Swift.type(of: resampler))
        if let hashable = resampler as? any Hashable {
            value = AnyHashable(hashable)
        } else if Swift.type(of: resampler) is AnyClass {
            // The options hold the instance, so its identifier is not reused while they exist.
            value = AnyHashable(ObjectIdentifier(resampler as AnyObject))
        } else {
            value = nil
        }
    }
}
