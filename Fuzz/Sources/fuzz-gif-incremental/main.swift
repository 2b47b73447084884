import FuzzSupport
import WICoderGIF

// Fuzzes an incremental GIF decode.
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decodeIncrementally(FuzzInput.data(bytes, count), with: GIFCoder())
    return 0
}
