import FuzzSupport
import WICoderPNG

// Fuzzes a one-shot PNG/APNG decode.
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: PNGCoder())
    return 0
}
