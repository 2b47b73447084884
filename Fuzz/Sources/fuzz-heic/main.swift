import FuzzSupport
import WICoderHEIC

// Fuzzes a one-shot HEIF/AVIF decode (libheif has no incremental decode).
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: HEIFCoder())
    return 0
}
