import FuzzSupport
import WICoderWebP

// Fuzzes a one-shot WebP decode (still and animated).
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: WebPCoder())
    return 0
}
