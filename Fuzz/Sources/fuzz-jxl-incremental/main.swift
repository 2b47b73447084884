import FuzzSupport
import WICoderJXL

// Fuzzes an incremental JPEG XL decode (libjxl's streaming input, partial images).
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decodeIncrementally(FuzzInput.data(bytes, count), with: JXLCoder())
    return 0
}
