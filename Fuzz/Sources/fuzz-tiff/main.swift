import FuzzSupport
import WICore
import WICoderTIFF

// Fuzzes a one-shot TIFF decode of every page, then a thumbnail decode (the band-by-band reduction) of the first.
FuzzInput.runFuzzer { bytes, count in
    let data = FuzzInput.data(bytes, count)
    FuzzInput.decode(data, with: TIFFCoder(decodesAllPages: true))
    var thumbnail = FuzzInput.options
    thumbnail.thumbnailPixelSize = PixelSize(width: 17, height: 13)
    _ = try? TIFFCoder().decode(data, options: thumbnail)
    return 0
}
