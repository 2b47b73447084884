import FuzzSupport
@_spi(Fuzzing) import WICoderPNG

// Fuzzes a one-shot PNG/APNG decode, and checks that the whole-buffer image data path (libdeflate and our own
// unfiltering) gives what libpng's rows give: a difference stops the fuzzer like a crash.
FuzzInput.runFuzzer { bytes, count in
    let data = FuzzInput.data(bytes, count)
    FuzzInput.decode(data, with: PNGCoder())
    if let mismatch = PNGImageDataPaths.mismatch(in: data, options: FuzzInput.options) { fatalError(mismatch) }
    return 0
}
