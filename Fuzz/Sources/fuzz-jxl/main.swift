import FuzzSupport
import WICoderJXL

// Fuzzes a one-shot JPEG XL decode (still and animated, codestream and container).
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: JXLCoder())
    return 0
}
