#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICairo

/// One PDF decode: open, pick the page, size, check the pixel limit, draw on white, convert.
struct PDFRendering {
    let coder: PDFCoder
    let options: DecodeOptions

    func render(_ data: Data) throws(ImageError) -> Image {
        let rendered: Result<(PixelBuffer, Bool), ImageError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try draw(bytes) }
        }
        let (pixels, isThumbnail) = try rendered.get()
        return Image(
            pixels: pixels, format: .pdf, scale: options.scaleFactor,
            flags: isThumbnail ? [.vector, .thumbnail] : [.vector], decodeOptions: options)
    }

    /// Opens the document over `bytes` and draws the page; nothing of poppler's outlives the call.
    private func draw(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> (PixelBuffer, Bool) {
        let document = try PDFDocument(reading: bytes, password: coder.password)
        let page = try document.page(coder.page)
        let natural = page.size
        guard natural.width > 0, natural.height > 0 else {
            throw ImageError(.badImageData, "the PDF page has no area (\(natural.width)x\(natural.height) pt)")
        }
        let size = try VectorRasterSize(natural: natural, options: options)
        try options.checkPixelLimit(size.pixels)
        let canvas = try CairoCanvas(size: size.pixels, premultiplied: options.premultipliedAlpha)
        canvas.fillWhite()
        canvas.scale(x: size.drawingScale.x, y: size.drawingScale.y)
        page.render(on: canvas.context)
        if let error = canvas.drawingError { throw error }
        return (try canvas.finish(), size.isThumbnail)
    }
}
