import FuzzSupport
import WICoderPNG

// Fuzzes an incremental PNG decode.
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decodeIncrementally(FuzzInput.data(bytes, count), with: PNGCoder())
    return 0
}
