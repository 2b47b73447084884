import FuzzSupport
@_spi(Fuzzing) import WICoderPNG

// Fuzzes the APNG chunk reader (acTL, fcTL, fdAT).
FuzzInput.runFuzzer { bytes, count in
    _ = try? APNGChunkReader.frameCount(in: FuzzInput.data(bytes, count))
    return 0
}
