#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CWebP

/// Adds ICC, EXIF and XMP chunks to an encoded WebP with libwebpmux (which also writes the VP8X header).
enum WebPMetadataWriter {
    /// `file` with `metadata`'s blocks as ICCP, EXIF and XMP chunks; `file` itself when there are none.
    static func attach(_ metadata: ImageMetadata, to file: Data) throws(ImageError) -> Data {
        let chunks = [("ICCP", metadata.iccProfile), ("EXIF", metadata.exif), ("XMP ", metadata.xmp)]
            .compactMap { name, block in block.flatMap { $0.isEmpty ? nil : (name, $0) } }
        guard !chunks.isEmpty else { return file }
        let created = file.withUnsafeBytes { bytes in
            var input = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
            return WebPMuxCreate(&input, 1)
        }
        guard let mux = created else {
            throw ImageError(.encodingFailed, "WebP: libwebpmux cannot read the encoded file")
        }
        defer { WebPMuxDelete(mux) }
        for (name, block) in chunks {
            let status = block.withUnsafeBytes { bytes in
                var chunk = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
                return WebPMuxSetChunk(mux, name, &chunk, 1)
            }
            try check(status, "adding the \(name) chunk")
        }
        var output = WebPData()
        WebPDataInit(&output)
        defer { WebPDataClear(&output) }
        try check(WebPMuxAssemble(mux, &output), "assembling the file")
        guard let bytes = output.bytes else { throw ImageError(.encodingFailed, "WebP: libwebpmux produced no data") }
        return Data(bytes: bytes, count: output.size)
    }

    private static func check(_ status: WebPMuxError, _ step: String) throws(ImageError) {
        switch status {
        case WEBP_MUX_OK: return
        case WEBP_MUX_MEMORY_ERROR: throw ImageError(.outOfMemory, "WebP mux: out of memory \(step)")
        default: throw ImageError(.encodingFailed, "WebP mux: error \(status.rawValue) \(step)")
        }
    }
}
