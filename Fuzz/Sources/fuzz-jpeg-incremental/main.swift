import FuzzSupport
import WICoderJPEG

// Fuzzes an incremental JPEG decode.
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decodeIncrementally(FuzzInput.data(bytes, count), with: JPEGCoder())
    return 0
}
