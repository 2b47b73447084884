import Foundation
import WICore

/// What every fuzz target shares: the input as `Data`, the decode options, and the two ways to drive a coder.
public enum FuzzInput {
    /// The decode options of every coder target: defaults, with a pixel limit of 16 megapixels so that a header
    /// claiming a huge canvas is refused by our check (what is under test) instead of tripping libFuzzer's 2 GB
    /// malloc limit on an allocation the default 256-megapixel limit would allow.
    public static let options = DecodeOptions(pixelLimit: 16 * 1024 * 1024)

    /// libFuzzer's input as `Data` (a copy: the fuzzer reuses its buffer).
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Decodes `data` in one call. Errors are the expected outcome for most inputs; a crash, leak or hang is not.
    public static func decode(_ data: Data, with coder: some ImageCoder) {
        guard coder.canDecode(data) else { return }
        _ = try? coder.decode(data, options: options)
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
