/// The fixtures each decode workload runs over, per format. One list shared by the package-benchmark targets and
/// by `wi-bench decode-sets`, which `Benchmarks/compare` reads so that the references decode the same files.
public enum DecodeSets {
    /// Format name -> paths relative to Tests/Fixtures. Files every reference (raw C loop, Pillow) also decodes, and
    /// none with an EXIF orientation: we rotate such images by default, the raw loops and Pillow's `load()` do not.
    public static let files: [(format: String, paths: [String])] = [
        (
            "png",
            [
                "png/iccp-displayp3.png", "png/indexed-4bit-trns.png", "png/interlaced-hibiscus.png",
                "png/rgba16.png", "formats/sample.png",
            ]
        ),
        (
            "jpeg",
            [
                "jpeg/hat-420.jpg", "jpeg/hat-444.jpg", "jpeg/hat-progressive.jpg", "jpeg/bricks-gray.jpg",
                "jpeg/progressive-cat.jpg", "jpeg/progressive-nuke.jpg", "formats/sample.jpg",
            ]
        ),
        ("heic", ["formats/sample.heic", "heic/hat.heic", "heic/gradient-alpha.heic"]),
        ("avif", ["formats/sample.avif", "heic/hat.avif"]),
        // WICoderBMP is Swift: gdk-pixbuf's loaders (the only C decoders of these on Debian) and Pillow are the
        // references (Benchmarks/compare's Codec rows, to RGBA on every side).
        (
            "bmp",
            [
                "bmp/irs-Core_8_Bit.bmp", "bmp/irs-Core_4_Bit.bmp", "bmp/tm-24bitpalette.bmp",
                "bmp/tm-blauesglas_16_bitmask565.bmp", "bmp/sg-rgba32-1.bmp", "bmp/tm-money-256-(os2).bmp",
            ]
        ),
        // Icons with BMP entries only (gdk-pixbuf refuses PNG entries), where every side picks the same (largest)
        // entry.
        (
            "ico",
            [
                "bmp/fc-24bipp.ico", "bmp/peer-favicon.ico", "bmp/tm-favicon.ico", "bmp/tm-JavaCup.ico",
                "bmp/tm-joypad.ico", "bmp/irs-multiple_entries_with_different_bit_depth.ico",
                "bmp/irs-bmp-32bpp-alpha.ico",
            ]
        ),
    ]

    /// The absolute paths of one format's set.
    public static func paths(_ format: String) -> [String] {
        (files.first { $0.format == format }?.paths ?? []).map { BenchPaths.fixtures + "/" + $0 }
    }
}
