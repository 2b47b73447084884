import FuzzSupport
import WICoderJPEG

// Fuzzes a one-shot JPEG decode.
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: JPEGCoder())
    return 0
}
