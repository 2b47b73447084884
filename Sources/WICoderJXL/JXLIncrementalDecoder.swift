#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Decodes a JPEG XL still as it arrives, through the same `JXLDecodeSession` as a one-shot decode: libjxl is fed
/// each chunk (its streaming input), and a partial image is libjxl's rendering of what it has so far (the 1:8 DC
/// image upsampled, then each progressive pass, then the groups as they complete), at the final size.
///
/// Animations are not shown while loading: once the header says the file is animated, the decoder only collects
/// the bytes and `finish` decodes them in one go (the pixel limit needs the frame count, which needs every frame
/// header).
///
/// libjxl 0.7 refuses some valid files (a permuted table of contents) once frame progression is subscribed: when the
/// streaming session reports bad data, the decoder stops showing partial images and `finish` decodes every byte in
/// one go without progression, which gives the image or the file's own typed error.
///
/// Not thread-safe: one transfer's decoder, used from one task at a time.
final class JXLIncrementalDecoder: IncrementalImageDecoder {
    private let coder: JXLCoder
    private let options: DecodeOptions
    private var session: JXLDecodeSession?
    /// Every byte, kept for the one-shot decode of an animation.
    private var received = Data()
    /// Only collect the bytes for `finish`: an animation, or a stream the progressive session refused.
    private var collectsOnly = false
    private var failure: ImageError?

    init(coder: JXLCoder, options: DecodeOptions) {
        self.coder = coder
        self.options = options
    }

    func append(_ data: Data) throws(ImageError) -> Bool {
        if let failure { throw failure }
        received.append(data)
        guard !collectsOnly else { return false }
        do throws(ImageError) {
            let session: JXLDecodeSession
            if let open = self.session {
                session = open
            } else {
                session = try JXLDecodeSession(options: options, frameLimit: 1, progressive: true)
                self.session = session
            }
            try session.append(data, isLast: false)
            if session.header?.isAnimated == true && !options.firstFrameOnly {
                collectsOnly = true
                self.session = nil
                return false
            }
            return session.takeProgress()
        } catch  where error.code == .badImageData {
            collectsOnly = true
            session = nil
            return false
        } catch {
            failure = error
            throw error
        }
    }

    func currentImage() -> Image? {
        guard let session, let header = session.header else { return nil }
        // A private copy: libjxl goes on writing into the session's canvas.
        guard var pixels = session.flushedCanvas() ?? session.frames.first?.pixels,
            (try? pixels.makeUnique()) != nil,
            let finished = try? options.finish(pixels, orientation: header.orientation)
        else { return nil }
        return Image(
            pixels: finished.pixels, format: .jxl, scale: options.scaleFactor,
            orientation: finished.orientation,
            flags: finished.isThumbnail ? [.incremental, .thumbnail] : .incremental, decodeOptions: options,
            metadata: ImageMetadata(iccProfile: session.iccProfile))
    }

    func finish() throws(ImageError) -> Image {
        if let failure { throw failure }
        guard let session else { return try coder.decode(received, options: options) }
        do {
            try session.append(Data(), isLast: true)
            return try JXLCoder.image(from: session)
        } catch  where error.code == .badImageData {
            // The streaming session saw the file as it came: a container libjxl 0.7 misreads (extended-size boxes)
            // runs short there, and decodes once `JXLContainer.compatible` has rewritten its boxes.
            let rewritten = JXLContainer.compatible(received)
            guard rewritten.count != received.count else { throw error }
            return try coder.decode(rewritten, options: options)
        }
    }
}
