import WICore

/// libjpeg-turbo's reduced decode: output at M/8 of the stored size (M = 1...8), rounded up per dimension.
enum JPEGScale {
    /// The smallest M of 1, 2, 4 and 8 whose output still covers `target` in both dimensions (8 when there is no
    /// target). libjpeg-turbo has SIMD inverse DCTs for those four sizes only; at 3/8, 5/8, 6/8 and 7/8 its plain C
    /// ones (and, for 4:2:0 chroma, the 6x6 and 10x10 ones) cost more than the larger output they save, as libvips'
    /// shrink-on-load also judges.
    static func numerator(for stored: PixelSize, target: PixelSize?) -> Int {
        guard let target else { return 8 }
        for m in [1, 2, 4, 8] {
            let size = scaled(stored, by: m)
            if size.width >= target.width && size.height >= target.height { return m }
        }
        return 8
    }

    /// The size libjpeg outputs at M/8: ceil(side * M / 8).
    static func scaled(_ stored: PixelSize, by m: Int) -> PixelSize {
        PixelSize(width: (stored.width * m + 7) / 8, height: (stored.height * m + 7) / 8)
    }
}
