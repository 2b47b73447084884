import Foundation
import Testing
import WICore
import WITestSupport

/// Peak signal-to-noise ratio over the RGB components of two equally sized buffers (infinity when equal).
func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
    precondition(a.size == b.size && a.format == .rgba8 && b.format == .rgba8)
    let x = a.packedBytes()
    let y = b.packedBytes()
    var sum = 0.0
    var count = 0
    for i in stride(from: 0, to: x.count, by: 4) {
        for c in 0..<3 {
            let d = Double(Int(x[i + c]) - Int(y[i + c]))
            sum += d * d
        }
        count += 3
    }
    if sum == 0 { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(count)))
}

/// A buffer of one grey (R = G = B = `gray`) at `alpha`, filled at memset speed.
func solidBuffer(width: Int, height: Int, gray: UInt8 = 255, alpha: UInt8 = 255) throws -> PixelBuffer {
    var buffer = try PixelBuffer(width: width, height: height, format: .rgba8, zeroed: false)
    let pixel = [gray, gray, gray, alpha].withUnsafeBytes { $0.load(as: UInt32.self) }
    _ = try buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt32.self, repeating: pixel) }
    return buffer
}

/// The JPEG fixtures and their committed Pillow references (Tests/Fixtures/jpeg-reference.tsv, made by
/// Tests/Fixtures/make-jpeg-reference.sh).
enum JPEGReference {
    static let all = PixelReference.load("jpeg-reference.tsv")
}

/// The JPEG segment markers of a file, in order, up to the first SOS (the bytes after FF).
func jpegMarkers(_ data: Data) -> [UInt8] {
    let bytes = [UInt8](data)
    var markers: [UInt8] = []
    var i = 2
    while i + 4 <= bytes.count, bytes[i] == 0xFF {
        let marker = bytes[i + 1]
        markers.append(marker)
        if marker == 0xDA { break }
        i += 2 + (Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]))
    }
    return markers
}

/// The (horizontal, vertical) sampling factors of each component in the file's SOF segment.
func samplingFactors(_ data: Data) -> [(Int, Int)] {
    let bytes = [UInt8](data)
    var i = 2
    while i + 4 <= bytes.count, bytes[i] == 0xFF {
        let marker = bytes[i + 1]
        let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        if [0xC0, 0xC1, 0xC2].contains(marker) {
            let count = Int(bytes[i + 9])
            return (0..<count).map { c in
                let v = bytes[i + 11 + c * 3]
                return (Int(v >> 4), Int(v & 0x0F))
            }
        }
        i += 2 + length
    }
    return []
}
