import Foundation
import WICore

extension ImageFormat {
    /// Netpbm: PPM (P6, colour), PGM (P5, grey) and PAM (P7, with alpha).
    public static let netpbm = ImageFormat("netpbm", mimeType: "image/x-portable-anymap", fileExtension: "pam")
}

/// A coder for a format WebImage does not ship, written in plain Swift: binary Netpbm images (P5, P6, P7 with
/// maxval up to 65535). Encodes P6 for opaque images and P7 `RGB_ALPHA` otherwise.
///
/// ```swift
/// coders.addCoder(NetpbmCoder())   // now the pipeline decodes .ppm/.pgm/.pam bytes from any loader
/// ```
///
/// Thread safety: stateless; safe from any thread.
public struct NetpbmCoder: ImageCoder {
    public init() {}

    public var decodingFormats: [ImageFormat] { [.netpbm] }

    public func canDecode(_ data: Data) -> Bool {
        guard data.count >= 3, data[data.startIndex] == UInt8(ascii: "P") else { return false }
        let kind = data[data.startIndex + 1]
        let separator = data[data.startIndex + 2]
        return [UInt8(ascii: "5"), UInt8(ascii: "6"), UInt8(ascii: "7")].contains(kind)
            && [0x20, 0x0A, 0x0D, 0x09].contains(separator)
    }

    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let bytes = [UInt8](data)
        let header = try NetpbmHeader.parse(bytes)
        try options.checkPixelLimit(PixelSize(width: header.width, height: header.height))
        let sampleBytes = header.maxValue > 255 ? 2 : 1
        let needed = header.width * header.height * header.depth * sampleBytes
        guard bytes.count - header.dataOffset >= needed else {
            throw ImageError(
                .badImageData, "Netpbm: \(needed) bytes of pixels expected, \(bytes.count - header.dataOffset) present")
        }
        var pixels = try PixelBuffer(width: header.width, height: header.height, format: .rgba8, zeroed: false)
        try pixels.withUnsafeMutableBytes { out in
            var input = header.dataOffset
            func sample() -> Int {
                defer { input += sampleBytes }
                let raw = sampleBytes == 2 ? Int(bytes[input]) << 8 | Int(bytes[input + 1]) : Int(bytes[input])
                return (min(raw, header.maxValue) * 255 + header.maxValue / 2) / header.maxValue
            }
            for index in 0..<(header.width * header.height) {
                let samples = (0..<header.depth).map { _ in sample() }
                let rgba: [Int] =
                    switch header.depth {
                    case 1: [samples[0], samples[0], samples[0], 255]
                    case 2: [samples[0], samples[0], samples[0], samples[1]]
                    case 3: samples + [255]
                    default: Array(samples.prefix(4))
                    }
                for channel in 0..<4 { out[index * 4 + channel] = UInt8(rgba[channel]) }
            }
        }
        let finished = try options.finish(pixels, orientation: .up)
        return Image(
            pixels: finished.pixels, format: .netpbm, scale: options.scaleFactor,
            flags: finished.isThumbnail ? .thumbnail : [], decodeOptions: options)
    }

    public func canEncode(to format: ImageFormat) -> Bool { format == .netpbm }

    public func encode(_ image: Image, as format: ImageFormat, options: EncodeOptions) throws(ImageError) -> Data {
        guard format == .netpbm else { throw ImageError(.unsupportedFormat, "NetpbmCoder writes Netpbm only") }
        let pixels = try image.pixels.converted(to: .rgba8)
        let opaque = pixels.isOpaque
        let header =
            opaque
            ? "P6\n\(pixels.width) \(pixels.height)\n255\n"
            : "P7\nWIDTH \(pixels.width)\nHEIGHT \(pixels.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        var output = Data(header.utf8)
        let packed = pixels.packedBytes()
        if opaque {
            output.reserveCapacity(output.count + pixels.width * pixels.height * 3)
            for index in stride(from: 0, to: packed.count, by: 4) {
                output.append(contentsOf: packed[index..<index + 3])
            }
        } else {
            output.append(contentsOf: packed)
        }
        return output
    }
}

/// A parsed Netpbm header.
struct NetpbmHeader {
    var width = 0, height = 0, depth = 0, maxValue = 0
    var dataOffset = 0

    static func parse(_ bytes: [UInt8]) throws(ImageError) -> NetpbmHeader {
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P") else {
            throw ImageError(.badImageData, "Netpbm: no magic")
        }
        var header = NetpbmHeader()
        var position = 2
        func token() -> String? {
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "#") {
                    while position < bytes.count && bytes[position] != 0x0A { position += 1 }
                } else if [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) {
                    position += 1
                } else {
                    break
                }
            }
            let start = position
            while position < bytes.count && ![0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
            return start < position ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }
        func number() throws(ImageError) -> Int {
            guard let text = token(), let value = Int(text), value > 0, value <= 1 << 24 else {
                throw ImageError(.badImageData, "Netpbm: bad header number")
            }
            return value
        }
        switch bytes[1] {
        case UInt8(ascii: "5"), UInt8(ascii: "6"):
            header.depth = bytes[1] == UInt8(ascii: "5") ? 1 : 3
            header.width = try number()
            header.height = try number()
            header.maxValue = try number()
        case UInt8(ascii: "7"):
            while let key = token(), key != "ENDHDR" {
                switch key {
                case "WIDTH": header.width = try number()
                case "HEIGHT": header.height = try number()
                case "DEPTH": header.depth = try number()
                case "MAXVAL": header.maxValue = try number()
                case "TUPLTYPE": _ = token()
                default: throw ImageError(.badImageData, "Netpbm: unknown PAM header field \(key)")
                }
            }
        default:
            throw ImageError(.badImageData, "Netpbm: only binary P5, P6 and P7 are supported")
        }
        guard (1...4).contains(header.depth), header.maxValue <= 65535, header.width > 0, header.height > 0 else {
            throw ImageError(.badImageData, "Netpbm: unsupported depth \(header.depth) or maxval \(header.maxValue)")
        }
        header.dataOffset = position + 1  // exactly one whitespace byte ends the header
        guard header.dataOffset <= bytes.count else { throw ImageError(.badImageData, "Netpbm: truncated header") }
        return header
    }
}
