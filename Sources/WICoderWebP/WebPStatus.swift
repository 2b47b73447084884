import WICore
internal import CWebP

/// The one place libwebp's return codes become `ImageError`s.
enum WebPStatus {
    /// Throws for every status but `VP8_STATUS_OK`: out of memory as `.outOfMemory`, everything else as
    /// `.badImageData` with libwebp's meaning of the code.
    static func check(_ status: VP8StatusCode, _ context: String) throws(ImageError) {
        guard status != VP8_STATUS_OK else { return }
        throw error(status, context)
    }

    /// The error for a failed status.
    static func error(_ status: VP8StatusCode, _ context: String) -> ImageError {
        let meaning: String =
            switch status {
            case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
            case VP8_STATUS_INVALID_PARAM: "invalid parameter"
            case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
            case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
            case VP8_STATUS_SUSPENDED: "suspended"
            case VP8_STATUS_USER_ABORT: "aborted"
            case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data (truncated file)"
            default: "status \(status.rawValue)"
            }
        let code: ImageError.Code = status == VP8_STATUS_OUT_OF_MEMORY ? .outOfMemory : .badImageData
        return ImageError(code, "WebP \(context): \(meaning)")
    }

    /// The error for a failed encode (`WebPPicture.error_code`).
    static func encodingError(_ code: WebPEncodingError, _ context: String) -> ImageError {
        let meaning: String =
            switch code {
            case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory"
            case VP8_ENC_ERROR_NULL_PARAMETER: "missing parameter"
            case VP8_ENC_ERROR_INVALID_CONFIGURATION: "invalid configuration"
            case VP8_ENC_ERROR_BAD_DIMENSION: "bad picture dimension (at most 16383 x 16383)"
            case VP8_ENC_ERROR_PARTITION0_OVERFLOW: "partition 0 overflow (over 512 KB)"
            case VP8_ENC_ERROR_PARTITION_OVERFLOW: "partition overflow (over 16 MB)"
            case VP8_ENC_ERROR_BAD_WRITE: "write failed"
            case VP8_ENC_ERROR_FILE_TOO_BIG: "file too big (over 4 GB)"
            case VP8_ENC_ERROR_USER_ABORT: "aborted"
            default: "error \(code.rawValue)"
            }
        let isMemory = code == VP8_ENC_ERROR_OUT_OF_MEMORY || code == VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY
        return ImageError(isMemory ? .outOfMemory : .encodingFailed, "WebP \(context): \(meaning)")
    }
}
