import FuzzSupport
import WICoderBMP
import WICoderPNG

// Fuzzes a one-shot BMP, ICO or CUR decode (PNG entries of icons go through the PNG coder, as WebImage wires it).
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: BMPCoder(pngCoder: PNGCoder()))
    return 0
}
