#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CWebP

/// Animated WebP encode with libwebp's `WebPAnimEncoder`, which picks sub-rectangles, blending and disposal per
/// frame, places key frames and (when allowed) mixes lossy and lossless frames.
enum WebPAnimationEncoder {
    /// An animated WebP of `frames` (all the same size), playing `loopCount` times (0 forever).
    static func encode(
        _ frames: [ImageFrame], loopCount: Int, config: WebPConfig,
        settings: WebPCoder.Configuration
    ) throws(ImageError) -> Data {
        let size = frames[0].pixels.size
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else {
            throw ImageError(.encodingFailed, "WebP: libwebp rejected its animation options (ABI mismatch)")
        }
        options.anim_params.loop_count = Int32(clamping: max(0, loopCount))
        options.allow_mixed = settings.allowMixed ? 1 : 0
        if let interval = settings.keyframeInterval {
            // libwebp wants kmax > kmin >= kmax / 2 + 1; kmax 1 with kmin 0 makes every frame a key frame.
            options.kmax = Int32(clamping: interval)
            options.kmin = interval == 1 ? 0 : Int32(clamping: interval / 2 + 1)
            if options.kmin >= options.kmax { options.kmin = options.kmax - 1 }
        }
        guard let encoder = WebPAnimEncoderNew(Int32(size.width), Int32(size.height), &options) else {
            throw ImageError(.encodingFailed, "WebP: cannot create an animation encoder for \(size)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = config
        var timestamp = 0
        for (index, frame) in frames.enumerated() {
            try WorkerPool.checkCancellation()
            let added = try WebPPictureEncoder.withPicture(frame.pixels) { picture throws(ImageError) -> Int32 in
                WebPAnimEncoderAdd(encoder, &picture, Int32(clamping: timestamp), &config)
            }
            guard added != 0 else { throw failure(encoder, "frame \(index)") }
            timestamp += max(1, Int((frame.duration * 1000).rounded()))
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(clamping: timestamp), nil) != 0 else {
            throw failure(encoder, "end of animation")
        }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        guard WebPAnimEncoderAssemble(encoder, &output) != 0, let bytes = output.bytes else {
            throw failure(encoder, "assembly")
        }
        return Data(bytes: bytes, count: output.size)
    }

    private static func failure(_ encoder: OpaquePointer, _ step: String) -> ImageError {
        let message = WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""
        return ImageError(.encodingFailed, "WebP animation \(step): \(message.isEmpty ? "failed" : message)")
    }
}
