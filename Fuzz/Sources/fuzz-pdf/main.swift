import FuzzSupport
import WICoderPDF

// Fuzzes a PDF page rasterize (poppler-glib; one-shot).
FuzzInput.runFuzzer { bytes, count in
    FuzzInput.decode(FuzzInput.data(bytes, count), with: PDFCoder())
    return 0
}
