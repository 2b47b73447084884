import FuzzSupport
import WICoderGIF

// Fuzzes a one-shot GIF decode (all frames).
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: GIFCoder())
    return 0
}
