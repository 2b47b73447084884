import FuzzSupport
import WICore
import WIColor

// Fuzzes Little CMS's profile path as WIColor drives it: the input is an ICC profile, applied to small RGBA8,
// RGBA16 and CMYK buffers (a profile of another colour space than the samples is refused, not converted).
FuzzInput.runFuzzer { bytes, count in
    let profile = FuzzInput.data(bytes, count)
    let metadata = ImageMetadata(iccProfile: profile)
    let converter = LittleCMSConverter()
    guard let rgba8 = try? PixelBuffer(width: 5, height: 3, format: .rgba8, bytes: (0..<60).map { UInt8($0 * 17 % 256) }),
        let rgba16 = try? rgba8.converted(to: .rgba16)
    else { return 0 }
    _ = try? converter.convertToSRGB(rgba8, describedBy: metadata, keep16Bit: false)
    _ = try? converter.convertToSRGB(rgba16, describedBy: metadata, keep16Bit: true)
    _ = try? converter.convertCMYKToSRGB(rgba8, inverted: count % 2 == 0, profile: profile)
    return 0
}
