import Foundation
import WICore

/// What every fuzz target shares: the input as `Data`, the decode options, and the two ways to drive a coder.
public enum FuzzInput {
    /// The decode options of every coder target: defaults, with a pixel limit of 1 megapixel. A header claiming a
    /// larger canvas is refused by our check (what is under test) instead of being decoded: a few hundred fuzzed
    /// bytes claiming 4000 x 4000 made libjpeg-turbo and libheif fill 64 MB under AddressSanitizer, which held the
    /// JPEG and HEIC targets to a few hundred executions per second (16 megapixels until 2026-11-23), and a tile
    /// grid or an animation of 1 megapixel still exercises every decoding path.
    public static let options = DecodeOptions(pixelLimit: 1024 * 1024)

    /// libFuzzer's input as `Data` (a copy: the fuzzer reuses its buffer).
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Decodes `data` in one call, then asks for every frame of an animation decoded on demand (frames after the
    /// first decode only then). Errors are the expected outcome for most inputs; a crash, leak or hang is not.
    public static func decode(_ data: Data, with coder: some ImageCoder) {
        guard coder.canDecode(data), let image = try? coder.decode(data, options: options) else { return }
        for index in 1..<max(1, image.frameCount) { _ = try? image.frame(at: index) }
    }

    /// Feeds `data` to an incremental decoder in chunks whose sizes cycle through 1, 7, 64, 300 and 4096 bytes
    /// (starting point chosen by the input's length), asking for the partial image after each useful chunk, then
    /// finishes it.
    public static func decodeIncrementally(_ data: Data, with coder: some ProgressiveImageCoder) {
        let header = data.prefix(64)
        guard coder.canDecode(header), let decoder = coder.makeIncrementalDecoder(header: header, options: options)
        else { return }
        let sizes = [1, 7, 64, 300, 4096]
        var turn = data.count % sizes.count
        var offset = data.startIndex
        do {
            while offset < data.endIndex {
                let end = min(offset + sizes[turn], data.endIndex)
                if try decoder.append(data[offset..<end]) { _ = decoder.currentImage() }
                offset = end
                turn = (turn + 1) % sizes.count
            }
            _ = try decoder.finish()
        } catch {
            return
        }
    }
}
