import WICore
internal import CHeifShim

// Owners of libheif's objects: each frees its object in deinit, so an early throw never leaks one.
// None is thread-safe: each lives inside one decode or encode call.

/// Owns a `heif_context` (a file being read or written).
final class HEIFContext {
    let pointer: OpaquePointer
    let heif: wi_heif_functions

    init(_ heif: wi_heif_functions) throws(ImageError) {
        guard let pointer = heif.heif_context_alloc() else {
            throw ImageError(.outOfMemory, "cannot allocate a heif_context")
        }
        self.pointer = pointer
        self.heif = heif
    }

    deinit { heif.heif_context_free(pointer) }
}

/// Owns a `heif_image_handle` (an image item: the primary image or a thumbnail).
final class HEIFImageHandle {
    let pointer: OpaquePointer
    let heif: wi_heif_functions

    init(_ pointer: OpaquePointer, _ heif: wi_heif_functions) {
        self.pointer = pointer
        self.heif = heif
    }

    deinit { heif.heif_image_handle_release(pointer) }
}

/// Owns a `heif_image` (decoded pixels, or pixels to encode); libheif owns its planes.
final class HEIFPixelImage {
    let pointer: OpaquePointer
    let heif: wi_heif_functions

    init(_ pointer: OpaquePointer, _ heif: wi_heif_functions) {
        self.pointer = pointer
        self.heif = heif
    }

    deinit { heif.heif_image_release(pointer) }
}

/// Owns a `heif_encoder`.
final class HEIFEncoderHandle {
    let pointer: OpaquePointer
    let heif: wi_heif_functions

    init(_ pointer: OpaquePointer, _ heif: wi_heif_functions) {
        self.pointer = pointer
        self.heif = heif
    }

    deinit { heif.heif_encoder_release(pointer) }
}

/// The one place libheif's `heif_error` results become `ImageError`s.
enum HEIFStatus {
    /// Throws unless `error` is `heif_error_Ok`. `failure` is the code for ordinary failures (`.badImageData` when
    /// decoding, `.encodingFailed` when encoding); allocation failures become `.outOfMemory` and libheif's
    /// security limits `.pixelLimitExceeded`.
    static func check(_ error: heif_error, _ action: String, failure: ImageError.Code = .badImageData)
        throws(ImageError)
    {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        let code: ImageError.Code
        if error.subcode == heif_suberror_Security_limit_exceeded {
            code = .pixelLimitExceeded  // reported as a memory allocation error with this subcode
        } else if error.code == heif_error_Memory_allocation_error {
            code = .outOfMemory
        } else {
            code = failure
        }
        throw ImageError(code, "libheif \(action): \(message)")
    }
}
