import FuzzSupport
import WICore
import WICoderJPEG
import WICoderPNG
import WIColor

// Fuzzes decodes to sRGB through a coders manager with Little CMS: JPEG (the CMYK samples kept for the file's
// profile, APP2 chunks joined) and PNG (iCCP, sRGB, gAMA, cHRM and cICP turned into a transform).
FuzzInput.runFuzzer { bytes, count in
    let coders = ImageCodersManager(coders: [PNGCoder(), JPEGCoder()], colorConverter: LittleCMSConverter())
    var options = FuzzInput.options
    options.targetColorSpace = .sRGB
    _ = try? coders.decode(FuzzInput.data(bytes, count), options: options)
    return 0
}
