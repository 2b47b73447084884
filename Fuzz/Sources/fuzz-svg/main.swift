import FuzzSupport
import WICoderSVG

// Fuzzes an SVG rasterize (librsvg parses the whole document; no incremental decode). Size attributes can ask
// for huge canvases: FuzzInput's 1-megapixel limit refuses those before cairo allocates.
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: SVGCoder())
    return 0
}
