#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore
import WICairo

/// One SVG decode: parse, size, check the pixel limit, draw, convert.
struct SVGRendering {
    let coder: SVGCoder
    let options: DecodeOptions

    func render(_ data: Data) throws(ImageError) -> Image {
        let parsed: Result<SVGDocument, ImageError> = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try SVGDocument(parsing: bytes) }
        }
        let document = try parsed.get()
        let natural = naturalSize(of: document)
        let size = try VectorRasterSize(natural: natural, options: options)
        try options.checkPixelLimit(size.pixels)
        let canvas = try CairoCanvas(size: size.pixels, premultiplied: options.premultipliedAlpha)
        canvas.scale(x: Double(size.pixels.width) / natural.width, y: Double(size.pixels.height) / natural.height)
        try document.render(on: canvas.context, viewport: natural)
        if let error = canvas.drawingError { throw error }
        return Image(pixels: try canvas.finish(), format: .svg, scale: options.scaleFactor,
                     flags: size.isThumbnail ? [.vector, .thumbnail] : [.vector], decodeOptions: options)
    }

    /// The intrinsic size in CSS pixels. A missing (or relative) width or height follows from the other and the
    /// viewBox's aspect, or equals the other without a viewBox; with neither, the coder's default long side and
    /// the viewBox's aspect (a square without one).
    private func naturalSize(of document: SVGDocument) -> (width: Double, height: Double) {
        let d = document.dimensions
        switch (d.width, d.height) {
        case let (width?, height?): return (width, height)
        case let (width?, nil): return (width, width / (d.aspect ?? 1))
        case let (nil, height?): return (height * (d.aspect ?? 1), height)
        case (nil, nil):
            let long = Double(coder.defaultLongSide), aspect = d.aspect ?? 1
            return aspect >= 1 ? (long, long / aspect) : (long * aspect, long)
        }
    }
}
