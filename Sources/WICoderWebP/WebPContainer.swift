#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import WICore
import WICoderSupport
internal import CWebP

/// A parsed WebP file: owns a copy of its bytes and libwebp's demuxer over them, and answers what the RIFF
/// container says (canvas, frames, loop count, durations, ICC/EXIF/XMP) without decoding any pixels.
///
/// libwebp's demuxer and animation decoder point into the bytes they were given, so the copy lives as long as
/// this object. Not thread-safe: owned by one decode, or guarded by its owner's lock.
final class WebPContainer {
    /// The file's bytes (a private `malloc`ed copy).
    let bytes: UnsafeMutableRawBufferPointer
    private let demuxer: OpaquePointer

    /// Parses `data`; a malformed or truncated container is `.badImageData`.
    init(_ data: Data) throws(ImageError) {
        guard let memory = malloc(max(data.count, 1)) else {
            throw ImageError(.outOfMemory, "cannot copy \(data.count) bytes of WebP data")
        }
        bytes = UnsafeMutableRawBufferPointer(start: memory, count: data.count)
        _ = data.copyBytes(to: bytes)
        var webpData = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demuxer = WebPDemux(&webpData) else {
            free(memory)
            throw ImageError(.badImageData, "WebP: invalid or truncated RIFF container")
        }
        self.demuxer = demuxer
    }

    deinit {
        WebPDemuxDelete(demuxer)
        free(bytes.baseAddress)
    }

    /// The file's bytes as libwebp's `WebPData` (valid while this object lives).
    var webpData: WebPData {
        WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
    }

    /// The canvas size (the image size for stills).
    var canvasSize: PixelSize {
        PixelSize(
            width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
            height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
    }

    /// Whether the VP8X header announces an animation.
    var isAnimated: Bool { WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & ANIMATION_FLAG.rawValue != 0 }

    /// The number of frames (1 for stills).
    var frameCount: Int { Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT)) }

    /// How many times the animation plays: 0 forever (0 for stills).
    var loopCount: Int { isAnimated ? Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)) : 0 }

    /// Each frame's duration in milliseconds, as stored (no browser rule applied).
    func durationsInMilliseconds() -> [Int] {
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &iterator) != 0 else { return [] }
        defer { WebPDemuxReleaseIterator(&iterator) }
        var durations: [Int] = []
        repeat { durations.append(Int(iterator.duration)) } while WebPDemuxNextFrame(&iterator) != 0
        return durations
    }

    /// The ICCP, EXIF and XMP chunks. EXIF loses a leading "Exif\0\0" if a writer put one there.
    var metadata: ImageMetadata {
        var exif = chunk("EXIF")
        if let block = exif, block.starts(with: Array("Exif\0\0".utf8)) { exif = block.dropFirst(6) }
        return ImageMetadata(iccProfile: chunk("ICCP"), exif: exif.map { Data($0) }, xmp: chunk("XMP "))
    }

    /// The EXIF orientation, `.up` without EXIF or a valid tag.
    var orientation: ImageOrientation { metadata.exif.flatMap(ImageCoding.ExifReader.orientation(in:)) ?? .up }

    private func chunk(_ fourCC: String) -> Data? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, fourCC, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let start = iterator.chunk.bytes else { return Data() }
        return Data(bytes: start, count: iterator.chunk.size)
    }
}
