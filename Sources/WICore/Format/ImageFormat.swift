/// An image file format: an open set of identifiers that plugins extend.
///
/// ```swift
/// extension ImageFormat { static let qoi = ImageFormat("qoi", mimeType: "image/qoi", fileExtension: "qoi") }
/// ImageFormat.detect(data)   // .png, .jpeg, ... or .undefined
/// ```
/// Equality and hashing use the identifier only.
///
/// Thread safety: a value type; safe to send and share.
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// A short lowercase name, unique per format: "png", "jpeg".
    public let identifier: String
    /// The MIME type, as used in HTTP Accept and Content-Type headers.
    public let mimeType: String
    /// The usual file extension, without the dot.
    public let fileExtension: String

    public init(_ identifier: String, mimeType: String, fileExtension: String) {
        self.identifier = identifier
        self.mimeType = mimeType
        self.fileExtension = fileExtension
    }

    public static func == (lhs: ImageFormat, rhs: ImageFormat) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    public var description: String { identifier }

    /// Not recognised.
    public static let undefined = ImageFormat("undefined", mimeType: "application/octet-stream", fileExtension: "")
    public static let jpeg = ImageFormat("jpeg", mimeType: "image/jpeg", fileExtension: "jpg")
    public static let png = ImageFormat("png", mimeType: "image/png", fileExtension: "png")
    public static let gif = ImageFormat("gif", mimeType: "image/gif", fileExtension: "gif")
    public static let webp = ImageFormat("webp", mimeType: "image/webp", fileExtension: "webp")
    /// HEIF with HEVC-coded images (ftyp brands heic, heix, hevc, hevx and their sequence forms).
    public static let heic = ImageFormat("heic", mimeType: "image/heic", fileExtension: "heic")
    /// HEIF with another or unnamed codec (ftyp brands mif1, msf1 only).
    public static let heif = ImageFormat("heif", mimeType: "image/heif", fileExtension: "heif")
    /// HEIF with AV1-coded images (ftyp brands avif, avis).
    public static let avif = ImageFormat("avif", mimeType: "image/avif", fileExtension: "avif")
    public static let tiff = ImageFormat("tiff", mimeType: "image/tiff", fileExtension: "tiff")
    public static let bmp = ImageFormat("bmp", mimeType: "image/bmp", fileExtension: "bmp")
    /// Windows icon (a directory of BMP or PNG images), as sites serve favicons.
    public static let ico = ImageFormat("ico", mimeType: "image/x-icon", fileExtension: "ico")
    /// Windows cursor: an ICO directory whose entries carry a hotspot.
    public static let cur = ImageFormat("cur", mimeType: "image/x-win-bitmap", fileExtension: "cur")
    public static let pdf = ImageFormat("pdf", mimeType: "application/pdf", fileExtension: "pdf")
    public static let svg = ImageFormat("svg", mimeType: "image/svg+xml", fileExtension: "svg")
    /// JPEG XL, as a bare codestream or in its ISOBMFF container.
    public static let jxl = ImageFormat("jxl", mimeType: "image/jxl", fileExtension: "jxl")

    /// The formats WICore knows by name, for lookups by identifier or file extension.
    public static let builtIn: [ImageFormat] = [
        .jpeg, .png, .gif, .webp, .heic, .heif, .avif, .tiff, .bmp, .ico, .cur, .pdf, .svg, .jxl,
    ]

    /// The built-in format with this identifier or file extension ("jpg", "jpeg", "PNG", "tif"...), if any.
    public static func named(_ name: String) -> ImageFormat? {
        let lower = name.lowercased()
        switch lower {
        case "jpg", "jpe", "jfif": return .jpeg
        case "tif": return .tiff
        case "apng": return .png
        default: return builtIn.first { $0.identifier == lower || $0.fileExtension == lower }
        }
    }
}
