import FuzzSupport
import WICoderWebP

// Fuzzes an incremental WebP decode.
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decodeIncrementally(FuzzInput.data(bytes, count), with: WebPCoder())
    return 0
}
