#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ImageFormat {
    /// The format of `data`, from its magic bytes only (nothing is decoded); `.undefined` when unknown.
    ///
    /// JPEG `FF D8 FF`; PNG's 8-byte signature; `GIF87a`/`GIF89a`; RIFF....WEBP; TIFF `II*\0`/`MM\0*`; BMP `BM`
    /// with a known DIB header size; ICO `00 00 01 00` and CUR `00 00 02 00` with at least one directory entry whose
    /// data starts after the directory; `%PDF-`; SVG when the root element is `<svg` (after an optional BOM, XML
    /// declaration, processing instructions, comments and doctype), also inside a gzip member (`.svgz`: `1F 8B 08`
    /// whose first 16 KiB inflated are such a document; only that much is inflated); HEIC, HEIF and AVIF by the ftyp box's major and
    /// compatible brands; JPEG XL as a bare codestream (`FF 0A`) or in its container (the 12-byte `JXL `
    /// signature box).
    public static func detect(_ data: Data) -> ImageFormat {
        data.withUnsafeBytes { detect(UnsafeRawBufferPointer($0)) }
    }

    /// The format of the bytes, from their magic bytes only; `.undefined` when unknown.
    public static func detect(_ bytes: UnsafeRawBufferPointer) -> ImageFormat {
        let b = bytes.bindMemory(to: UInt8.self)
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard b.count >= offset + prefix.count else { return false }
            for (i, byte) in prefix.enumerated() where b[offset + i] != byte { return false }
            return true
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        // BigTIFF: version 43, then an offset size of 8.
        if starts([0x49, 0x49, 0x2B, 0x00, 0x08, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B, 0x00, 0x08]) {
            return .tiff
        }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if starts([0xFF, 0x0A]) || starts([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .jxl
        }
        if starts(Array("ftyp".utf8), at: 4), let format = isoBrandFormat(b) { return format }
        if starts(Array("BM".utf8)) && b.count >= 18 {
            let dibSize = Int(b[14]) | Int(b[15]) << 8 | Int(b[16]) << 16 | Int(b[17]) << 24
            if [12, 40, 52, 56, 64, 108, 124].contains(dibSize) { return .bmp }
        }
        if let format = iconFormat(b) { return format }
        if SVGSniffer.startsWithSVGRoot(b) { return .svg }
        if Gzip.isGzip(b) {  // .svgz: the first 16 KiB it inflates to, at most, are sniffed
            let inner = Gzip.prefix(b, count: SVGSniffer.scanLimit)
            if inner.withUnsafeBufferPointer(SVGSniffer.startsWithSVGRoot) { return .svg }
        }
        return .undefined
    }

    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heifBrands: Set<String> = ["mif1", "msf1", "mif2"]

    /// Reads the ftyp box. The major brand decides as in SDWebImage (heic family -> HEIC, avif/avis -> AVIF,
    /// mif1/msf1 -> HEIF); compatible brands are consulted to find AVIF under a generic mif1/msf1 major brand, and
    /// to classify files whose major brand is none of these (e.g. miaf).
    private static func isoBrandFormat(_ b: UnsafeBufferPointer<UInt8>) -> ImageFormat? {
        guard b.count >= 12 else { return nil }
        func brand(at offset: Int) -> String {
            String(decoding: b[offset..<offset + 4], as: UTF8.self)
        }
        let boxSize = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        var brands = [brand(at: 8)]
        var offset = 16
        while offset + 4 <= Swift.min(boxSize, b.count) {
            brands.append(brand(at: offset))
            offset += 4
        }
        let major = brands[0]
        let compatible = brands.dropFirst()
        if avifBrands.contains(major) { return .avif }
        if heicBrands.contains(major) { return .heic }
        if heifBrands.contains(major) { return compatible.contains(where: avifBrands.contains) ? .avif : .heif }
        if compatible.contains(where: avifBrands.contains) { return .avif }
        if compatible.contains(where: heicBrands.contains) { return .heic }
        if compatible.contains(where: heifBrands.contains) { return .heif }
        return nil
    }

    /// ICO or CUR: reserved 0, type 1 or 2, a non-zero entry count, and a first entry whose data offset lies past the
    /// directory (22 bytes needed; an ISO `ftyp` box of 256 or 512 bytes is not one). The entry's own reserved byte
    /// is not checked: files with one set decode in browsers and Pillow.
    private static func iconFormat(_ b: UnsafeBufferPointer<UInt8>) -> ImageFormat? {
        guard b.count >= 22, b[0] == 0, b[1] == 0, b[2] == 1 || b[2] == 2, b[3] == 0 else { return nil }
        let count = Int(b[4]) | Int(b[5]) << 8
        let offset = Int(b[18]) | Int(b[19]) << 8 | Int(b[20]) << 16 | Int(b[21]) << 24
        guard count > 0, offset >= 6 + 16 * count, !(b[4] == 0x66 && b[5] == 0x74) else { return nil }
        return b[2] == 1 ? .ico : .cur
    }
}
