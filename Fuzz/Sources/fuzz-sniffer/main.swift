import FuzzSupport
import WICore

// Fuzzes the format sniffer.
FuzzInput.runFuzzer { bytes, count in
    _ = ImageFormat.detect(FuzzInput.data(bytes, count))
    return 0
}
