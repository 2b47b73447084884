#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
internal import CHeifShim

/// Reads the ICC profile, the nclx colour description, EXIF and XMP blocks attached to an image item.
enum HEIFMetadata {
    static func read(_ handle: HEIFImageHandle) -> ImageMetadata {
        let heif = handle.heif
        var metadata = ImageMetadata()
        let iccSize = heif.heif_image_handle_get_raw_color_profile_size(handle.pointer)
        if iccSize > 0 {
            var icc = Data(count: iccSize)
            let error = icc.withUnsafeMutableBytes {
                heif.heif_image_handle_get_raw_color_profile(handle.pointer, $0.baseAddress)
            }
            if error.code == heif_error_Ok { metadata.iccProfile = icc }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        if heif.heif_image_handle_get_nclx_color_profile(handle.pointer, &nclx).code == heif_error_Ok, let nclx {
            let profile = nclx.pointee
            metadata.colorDescription = .cicp(
                .init(
                    primaries: Int(profile.color_primaries.rawValue),
                    transfer: Int(profile.transfer_characteristics.rawValue),
                    matrix: Int(profile.matrix_coefficients.rawValue), fullRange: profile.full_range_flag != 0))
            heif.heif_nclx_color_profile_free(nclx)
        }
        if let block = blocks(of: handle, type: "Exif").first {
            metadata.exif = tiff(fromExifItem: block)
        }
        metadata.xmp = blocks(of: handle, type: "mime", contentType: "application/rdf+xml").first
        return metadata
    }

    /// The payloads of the metadata items of `type` (and `contentType`, for "mime" items).
    private static func blocks(of handle: HEIFImageHandle, type: String, contentType: String? = nil) -> [Data] {
        let heif = handle.heif
        let count = Int(heif.heif_image_handle_get_number_of_metadata_blocks(handle.pointer, type))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(
            heif.heif_image_handle_get_list_of_metadata_block_IDs(handle.pointer, type, &ids, Int32(count)))
        return ids.prefix(listed).compactMap { id in
            if let contentType {
                guard let actual = heif.heif_image_handle_get_metadata_content_type(handle.pointer, id),
                    String(cString: actual) == contentType
                else { return nil }
            }
            let size = heif.heif_image_handle_get_metadata_size(handle.pointer, id)
            guard size > 0 else { return nil }
            var data = Data(count: size)
            let error = data.withUnsafeMutableBytes {
                heif.heif_image_handle_get_metadata(handle.pointer, id, $0.baseAddress)
            }
            return error.code == heif_error_Ok ? data : nil
        }
    }

    /// An Exif item is a 4-byte big-endian offset to the TIFF header, then the data (often "Exif\0\0" + TIFF).
    /// Returns the TIFF structure, or nil when the offset points outside the block.
    static func tiff(fromExifItem item: Data) -> Data? {
        let bytes = [UInt8](item)
        guard bytes.count >= 4 else { return nil }
        let offset = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        var start = 4 + offset
        guard start < bytes.count else { return nil }
        if bytes[start...].starts(with: Array("Exif\0\0".utf8)) { start += 6 }
        guard start + 8 <= bytes.count else { return nil }
        return Data(bytes[start...])
    }
}
