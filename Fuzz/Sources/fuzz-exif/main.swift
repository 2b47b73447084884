import FuzzSupport
import WICore
import WICoderSupport

// Fuzzes the EXIF reader (orientation, and rewriting it).
FuzzInput.runFuzzer { bytes, count in
    let exif = FuzzInput.data(bytes, count)
    if ImageCoding.ExifReader.orientation(in: exif) != nil {
        let flipped = ImageCoding.ExifReader.replacingOrientation(in: exif, with: .downMirrored)
        precondition(ImageCoding.ExifReader.orientation(in: flipped) == .downMirrored, "rewritten orientation not read back")
    }
    return 0
}
