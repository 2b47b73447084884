#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageMetadata {
    /// A copy without what identifies a person, a place or a device: no EXIF (GPS position, camera serial numbers,
    /// timestamps, maker notes) and no XMP; the colour profile and description and a cursor's hotspot stay.
    ///
    /// With `keepingCopyright`, the EXIF Artist (0x013B) and Copyright (0x8298) fields of the source survive in a
    /// new EXIF block that holds them alone (thumbor's PRESERVE_EXIF_COPYRIGHT_INFO, imgproxy's keep-copyright).
    /// Apply the orientation to the pixels first: the block carries none.
    ///
    /// ```swift
    /// let shared = image.with(metadata: image.metadata.removingPersonalData(keepingCopyright: true))
    /// ```
    ///
    /// Thread safety: a pure function of the value.
    public func removingPersonalData(keepingCopyright: Bool = false) -> ImageMetadata {
        var kept = ImageMetadata(iccProfile: iccProfile)
        kept.cursorHotspot = cursorHotspot
        kept.colorDescription = colorDescription
        if keepingCopyright, let exif {
            let fields = [ExifCopyright.artist, ExifCopyright.copyright].compactMap { tag in
                ExifCopyright.asciiValue(of: tag, in: exif).map { (tag, $0) }
            }
            if !fields.isEmpty { kept.exif = ExifCopyright.block(fields) }
        }
        return kept
    }
}

/// Reads and writes the two EXIF fields that name an image's author and rights (ASCII, in IFD0).
enum ExifCopyright {
    static let artist: UInt16 = 0x013B
    static let copyright: UInt16 = 0x8298

    /// The raw bytes of ASCII field `tag` in IFD0 of `exif` (with or without the "Exif\0\0" prefix), trailing NULs
    /// removed; nil when absent, empty, of another type or out of bounds.
    static func asciiValue(of tag: UInt16, in exif: Data) -> Data? {
        guard let structure = ExifStructure(exif), let at = structure.entry(Int(tag)),
            structure.u16(at + 2) == 2, let length = structure.u32(at + 4), length > 0, length <= 1 << 16,
            let offset = length <= 4 ? at + 8 : structure.u32(at + 8),
            structure.start + offset + length <= structure.bytes.count
        else { return nil }
        var value = structure.bytes[(structure.start + offset)..<(structure.start + offset + length)]
        while value.last == 0 { value.removeLast() }
        return value.isEmpty ? nil : Data(value)
    }

    /// A big-endian TIFF structure whose IFD0 holds `fields` (ascending tags, ASCII, each NUL-terminated).
    static func block(_ fields: [(UInt16, Data)]) -> Data {
        var out: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]
        func u16(_ value: Int) { out += [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u32(_ value: Int) {
            out += [
                UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
            ]
        }
        let values = fields.map { [UInt8]($0.1) + [0] }
        var dataOffset = 8 + 2 + fields.count * 12 + 4
        u16(fields.count)
        var extra: [UInt8] = []
        for ((tag, _), value) in zip(fields, values) {
            u16(Int(tag))
            u16(2)
            u32(value.count)
            if value.count <= 4 {
                out += value + [UInt8](repeating: 0, count: 4 - value.count)
            } else {
                u32(dataOffset)
                extra += value
                if value.count % 2 == 1 { extra.append(0) }  // values start on word boundaries
                dataOffset += value.count + value.count % 2
            }
        }
        u32(0)  // no next IFD
        return Data(out + extra)
    }
}
