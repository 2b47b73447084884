/// The memory layout of one pixel: four interleaved components R, G, B, A.
///
/// 8-bit forms store one byte per component; 16-bit forms store host-endian `UInt16` components (the form 16-bit
/// PNG and 10/12-bit HEIC decode into when asked to keep their depth). Straight alpha is what files hold and what
/// `wi info --dump-rgba` writes; premultiplied alpha is what compositing (pixman) wants.
///
/// Thread safety: a value type; safe to send and share.
public enum PixelFormat: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// 8 bits per component, straight (unassociated) alpha.
    case rgba8
    /// 8 bits per component, colour premultiplied by alpha.
    case premultipliedRGBA8
    /// 16 bits per component (host-endian), straight alpha.
    case rgba16
    /// 16 bits per component (host-endian), colour premultiplied by alpha.
    case premultipliedRGBA16

    /// Bytes per pixel: 4 or 8.
    public var bytesPerPixel: Int { bitsPerComponent / 2 }

    /// Bits per component: 8 or 16.
    public var bitsPerComponent: Int {
        switch self {
        case .rgba8, .premultipliedRGBA8: 8
        case .rgba16, .premultipliedRGBA16: 16
        }
    }

    /// The RGBA form of 16 bits (`wide`) or 8, with premultiplied or straight alpha.
    package static func rgba(wide: Bool, premultiplied: Bool) -> PixelFormat {
        switch (wide, premultiplied) {
        case (false, false): .rgba8
        case (false, true): .premultipliedRGBA8
        case (true, false): .rgba16
        case (true, true): .premultipliedRGBA16
        }
    }

    /// Whether colour is premultiplied by alpha.
    public var isPremultiplied: Bool { self == .premultipliedRGBA8 || self == .premultipliedRGBA16 }

    public var description: String {
        switch self {
        case .rgba8: "RGBA8"
        case .premultipliedRGBA8: "RGBA8 (premultiplied)"
        case .rgba16: "RGBA16"
        case .premultipliedRGBA16: "RGBA16 (premultiplied)"
        }
    }
}
