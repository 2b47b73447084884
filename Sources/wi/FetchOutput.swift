#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import WebImage

/// Where and how `wi fetch --out` writes its images, encoding each one once.
///
/// A thumbnail or resized image is stored in the disk cache in the output's format (`serializer`, set as the loads'
/// cache serializer), and the writer reuses those bytes instead of encoding the image a second time. On a later
/// run the disk cache's entry for the thumbnail already holds the output's bytes, and they are written as read.
///
/// Thread safety: `Sendable`; `write` may run on several threads at once.
struct FetchOutput: Sendable {
    let folder: String
    let format: ImageFormat?
    let quality: Double
    /// Whether the images are thumbnails or resized (then the downloaded bytes do not describe them).
    let transformed: Bool
    let coders: ImageCodersManager
    let serializer: EncodingSerializer

    init(folder: String, format: ImageFormat?, quality: Double, transformed: Bool, coders: ImageCodersManager) {
        (self.folder, self.format, self.quality, self.transformed, self.coders) = (
            folder, format, quality, transformed, coders
        )
        serializer = EncodingSerializer(coders: coders, format: format, options: EncodeOptions(quality: quality))
    }

    /// Writes one result: the downloaded bytes as they are when nothing changed the image and no format was asked,
    /// else the image in `format` (default: its own format when encodable, else PNG). Returns the error text of a
    /// failed write.
    func write(_ result: ImageResult, named url: URL, index: Int) -> String? {
        do {
            var stem = url.lastPathComponent.deletingPathExtension
            if stem.isEmpty || stem == "/" { stem = "image-\(index)" }
            let bytes: Data
            let chosen: ImageFormat
            if format == nil, !transformed, let data = result.data {
                bytes = data
                chosen = ImageFormat.detect(data) == .undefined ? result.image.format : ImageFormat.detect(data)
            } else {
                chosen = serializer.format(for: result.image)
                bytes = try encoded(result, url: url, as: chosen)
            }
            let name = "\(index)-\(stem).\(chosen.fileExtension.isEmpty ? "bin" : chosen.fileExtension)"
            try Self.replace(URL(fileURLWithPath: folder).appendingPathComponent(name), with: bytes)
            return nil
        } catch {
            return "writing the output: \(describe(error))"
        }
    }

    /// The bytes of `result.image` in `format`: those the serializer made for the disk cache during this load;
    /// or, for a thumbnail read from the disk cache (the serializer was not asked, so the entry read is the
    /// thumbnail's own), the entry's bytes when they are in `format` and hold the same frames; else a new encode.
    private func encoded(_ result: ImageResult, url: URL, as format: ImageFormat) throws(ImageError) -> Data {
        switch serializer.take(url) {
        case .some(let made?): return made
        case .some(nil): break
        case nil:
            if transformed, result.cacheType == .disk, let stored = result.sourceData,
                ImageFormat.detect(stored) == format,
                result.image.frameCount == frameCount(of: stored)
            {
                return stored
            }
        }
        return try coders.encode(result.image, as: format, options: EncodeOptions(quality: quality))
    }

    /// Writes `bytes` to a temporary file beside `file` (named by the process and the output's own name, so no
    /// two writers share one), then renames it over `file`: a reader sees the old file or the whole new one. Plain
    /// POSIX calls: FoundationEssentials' `Data.write(to:)` fsyncs every file and reads /dev/urandom for a UUID name
    /// (300 fsyncs, 0.18 s of blocked writer threads in the corpus Pipeline row); thumbnails are not worth a sync.
    private static func replace(_ file: URL, with bytes: Data) throws {
        let path = file.path
        let temporary = file.deletingLastPathComponent().appendingPathComponent(
            ".\(file.lastPathComponent).\(getpid()).tmp"
        ).path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputFileError("create \(temporary)", errno: errno) }
        let failure = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int32 in
            var written = 0
            while written < buffer.count {
                let count = Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += count
            }
            return 0
        }
        let closed = close(fd) == 0 ? 0 : errno
        guard failure == 0, closed == 0 else {
            unlink(temporary)
            throw OutputFileError("write \(temporary)", errno: failure != 0 ? failure : closed)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputFileError("rename to \(path)", errno: code)
        }
    }

    /// The frames in `data`: an animated coder's count, 1 for a still.
    private func frameCount(of data: Data) -> Int {
        (try? coders.makeAnimatedDecoder(data, options: DecodeOptions()))?.frameCount ?? 1
    }
}

/// A cache serializer that stores derived images (thumbnails, resized) in the output format and keeps the bytes it
/// made for the writer; originals are stored as downloaded.
///
/// Thread safety: `Sendable`; the kept bytes are under a lock.
final class EncodingSerializer: CacheSerializer {
    private let coders: ImageCodersManager
    private let outputFormat: ImageFormat?
    private let options: EncodeOptions
    /// Per URL, what the serializer made for its derived image (nil: the encode failed), until the writer takes it.
    private let made = Mutex<[String: Data?]>([:])

    init(coders: ImageCodersManager, format: ImageFormat?, options: EncodeOptions) {
        (self.coders, self.outputFormat, self.options) = (coders, format, options)
    }

    /// The format `image` is written in: the one asked for, else its own when encodable, else PNG.
    func format(for image: Image) -> ImageFormat {
        outputFormat ?? (coders.canEncode(to: image.format) ? image.format : .png)
    }

    func cacheData(for image: Image, originalData: Data?, url: URL) -> Data? {
        if let originalData { return originalData }
        let bytes = try? coders.encode(image, as: format(for: image), options: options)
        made.withLock { $0[url.absoluteString] = .some(bytes) }
        return bytes
    }

    /// What the serializer made for `url`'s derived image, removed: nil when it was not asked.
    func take(_ url: URL) -> Data?? {
        made.withLock { $0.removeValue(forKey: url.absoluteString) }
    }
}

/// A failed create, write or rename of an output file, with the system's reason.
private struct OutputFileError: Error, CustomStringConvertible {
    let description: String

    init(_ what: String, errno code: Int32) { description = "\(what): \(String(cString: strerror(code)))" }
}
