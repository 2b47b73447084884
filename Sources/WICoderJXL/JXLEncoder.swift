#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CJXLShim

/// One JPEG XL encode with libjxl's `JxlEncoder`: sRGB frames (RGBA8 or RGBA16, straight alpha, tightly packed
/// rows) in, a bare codestream out.
struct JXLEncoder {
    let frames: [ImageFrame]
    let loopCount: Int
    let effort: Int

    /// Encodes lossily at `distance`, or losslessly when nil.
    func encode(distance: Float?) throws(ImageError) -> Data {
        let handle = try JXLEncoderHandle()
        let jxl = handle.jxl
        let encoder = handle.pointer
        let first = frames[0].pixels
        let wide = first.format.bitsPerComponent == 16
        let hasAlpha = frames.contains { !$0.pixels.isOpaque }
        let isAnimation = frames.count > 1
        var info = JxlBasicInfo()
        jxl.JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(first.width)
        info.ysize = UInt32(first.height)
        info.bits_per_sample = wide ? 16 : 8
        info.num_color_channels = 3
        info.num_extra_channels = hasAlpha ? 1 : 0
        info.alpha_bits = hasAlpha ? info.bits_per_sample : 0
        info.uses_original_profile = distance == nil ? 1 : 0
        if isAnimation {
            info.have_animation = 1
            info.animation.tps_numerator = 1000
            info.animation.tps_denominator = 1
            info.animation.num_loops = UInt32(clamping: loopCount)
        }
        try handle.check(jxl.JxlEncoderSetBasicInfo(encoder, &info), "the basic info")
        var color = JxlColorEncoding()
        jxl.JxlColorEncodingSetToSRGB(&color, 0)
        try handle.check(jxl.JxlEncoderSetColorEncoding(encoder, &color), "the sRGB colour encoding")
        guard let settings = jxl.JxlEncoderFrameSettingsCreate(encoder, nil) else {
            throw ImageError(.outOfMemory, "JPEG XL: cannot create frame settings")
        }
        try handle.check(
            jxl.JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, Int64(effort)),
            "the effort")
        if let distance {
            try handle.check(jxl.JxlEncoderSetFrameDistance(settings, distance), "the distance")
        } else {
            try handle.check(jxl.JxlEncoderSetFrameLossless(settings, 1), "lossless mode")
        }
        var format = JxlPixelFormat(
            num_channels: hasAlpha ? 4 : 3, data_type: wide ? JXL_TYPE_UINT16 : JXL_TYPE_UINT8,
            endianness: JXL_NATIVE_ENDIAN, align: 0)
        for frame in frames {
            if isAnimation {
                var header = JxlFrameHeader()
                jxl.JxlEncoderInitFrameHeader(&header)
                header.duration = UInt32(clamping: Int((frame.duration * 1000).rounded()))
                try handle.check(jxl.JxlEncoderSetFrameHeader(settings, &header), "the frame header")
            }
            let samples = hasAlpha ? frame.pixels.packedBytes() : Self.dropAlpha(frame.pixels)
            let status = samples.withUnsafeBytes { bytes in
                jxl.JxlEncoderAddImageFrame(settings, &format, bytes.baseAddress, bytes.count)
            }
            try handle.check(status, "a frame")
        }
        jxl.JxlEncoderCloseInput(encoder)
        return try handle.drain()
    }

    /// RGB only: packed rows without their alpha samples (an opaque image encodes without an alpha channel).
    private static func dropAlpha(_ pixels: PixelBuffer) -> [UInt8] {
        let packed = pixels.packedBytes()
        let sampleBytes = pixels.format.bitsPerComponent / 8
        let pixelBytes = 4 * sampleBytes
        var rgb = [UInt8](repeating: 0, count: packed.count / 4 * 3)
        rgb.withUnsafeMutableBufferPointer { out in
            packed.withUnsafeBufferPointer { input in
                var o = 0
                for p in stride(from: 0, to: input.count, by: pixelBytes) {
                    for i in 0..<(3 * sampleBytes) { out[o + i] = input[p + i] }
                    o += 3 * sampleBytes
                }
            }
        }
        return rgb
    }
}

/// Owns one `JxlEncoder`; its status codes become `.encodingFailed`.
///
/// Not thread-safe: used by one encode.
final class JXLEncoderHandle {
    let pointer: OpaquePointer
    let jxl: wi_jxl_functions

    /// Throws `.unsupportedFormat` when libjxl cannot be loaded.
    init() throws(ImageError) {
        let jxl = try JXLLibrary.functions()
        guard let pointer = jxl.JxlEncoderCreate(nil) else {
            throw ImageError(.outOfMemory, "JPEG XL: cannot create an encoder")
        }
        self.pointer = pointer
        self.jxl = jxl
    }

    deinit { jxl.JxlEncoderDestroy(pointer) }

    func check(_ status: JxlEncoderStatus, _ what: String) throws(ImageError) {
        guard status == JXL_ENC_SUCCESS else {
            throw ImageError(
                .encodingFailed, "JPEG XL: libjxl refused \(what) (error \(jxl.JxlEncoderGetError(pointer).rawValue))")
        }
    }

    /// Collects the encoded bytes, growing the output until libjxl is done.
    func drain() throws(ImageError) -> Data {
        var output = [UInt8](repeating: 0, count: 64 * 1024)
        var written = 0
        while true {
            let status = output.withUnsafeMutableBufferPointer { buffer in
                var next = buffer.baseAddress.map { $0 + written }
                var left = buffer.count - written
                let status = jxl.JxlEncoderProcessOutput(pointer, &next, &left)
                written = buffer.count - left
                return status
            }
            switch status {
            case JXL_ENC_SUCCESS: return Data(output[0..<written])
            case JXL_ENC_NEED_MORE_OUTPUT: output.append(contentsOf: repeatElement(0, count: output.count))
            default: try check(status, "the encode")
            }
        }
    }
}
