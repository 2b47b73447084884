import WICore

/// One colour channel of a 16/24/32-bit pixel: a contiguous run of bits, scaled to 8 bits as `v * 255 / max`
/// (truncating, as Pillow's 5- and 6-bit unpackers do; 8-bit channels are copied).
struct ChannelMask {
    let mask: UInt32
    let shift: UInt32
    let maximum: UInt32
    /// The 8-bit value of every channel value, for channels of 1 to 16 bits other than 8.
    private var table: [UInt8] = []

    /// A mask read from a file: refused unless its bits are contiguous.
    init(_ mask: UInt32) throws(ImageError) {
        self.init(known: mask)
        guard maximum & (maximum &+ 1) == 0 else {
            throw ImageError(.badImageData, "BMP: colour mask 0x\(String(mask, radix: 16)) is not contiguous")
        }
    }

    /// A mask known to be contiguous (or 0).
    init(known mask: UInt32) {
        self.mask = mask
        shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
        maximum = mask >> shift
        if maximum != 0 && maximum != 255 && maximum < 65536 {
            let top = UInt64(maximum)
            table = (0...top).map { UInt8(truncatingIfNeeded: $0 * 255 / top) }
        }
    }

    @inline(__always) func value(_ pixel: UInt32) -> UInt32 {
        let v = (pixel & mask) >> shift
        if maximum == 255 || maximum == 0 { return v }
        if !table.isEmpty { return UInt32(table[Int(v)]) }
        return UInt32(UInt64(v) * 255 / UInt64(maximum))
    }
}

/// The four channel masks of a 16/24/32-bit layout; an alpha mask of 0 means opaque.
struct ChannelMasks {
    let red: ChannelMask, green: ChannelMask, blue: ChannelMask, alpha: ChannelMask

    init(red: UInt32, green: UInt32, blue: UInt32, alpha: UInt32) throws(ImageError) {
        self.init(
            red: try ChannelMask(red), green: try ChannelMask(green), blue: try ChannelMask(blue),
            alpha: try ChannelMask(alpha))
    }

    init(red: ChannelMask, green: ChannelMask, blue: ChannelMask, alpha: ChannelMask) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    var hasAlpha: Bool { alpha.mask != 0 }

    /// 8-bit channels at byte positions B, G, R (and A or unused): the layout the fast loops copy directly.
    var isBGRA: Bool {
        red.mask == 0x00FF_0000 && green.mask == 0x0000_FF00 && blue.mask == 0x0000_00FF
            && (alpha.mask == 0 || alpha.mask == 0xFF00_0000)
    }

    /// BI_RGB's layouts: 5-5-5 for 16 bits, BGR for 24, BGRX for 32 (BGRA inside icons).
    static func defaults(bitCount: Int, alphaInFourthByte: Bool) -> ChannelMasks {
        if bitCount == 16 {
            return ChannelMasks(
                red: ChannelMask(known: 0x7C00), green: ChannelMask(known: 0x03E0),
                blue: ChannelMask(known: 0x001F), alpha: ChannelMask(known: 0))
        }
        return ChannelMasks(
            red: ChannelMask(known: 0x00FF_0000), green: ChannelMask(known: 0x0000_FF00),
            blue: ChannelMask(known: 0x0000_00FF),
            alpha: ChannelMask(known: bitCount == 32 && alphaInFourthByte ? 0xFF00_0000 : 0))
    }
}
