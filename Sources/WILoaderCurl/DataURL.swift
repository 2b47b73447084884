#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// A decoded `data:` URL (RFC 2397): `data:[<mediatype>][;base64],<data>`.
///
/// Thread safety: a value type; safe to send and share.
struct DataURL {
    /// The media type with its parameters, `text/plain;charset=US-ASCII` when the URL names none.
    var mediaType: String
    var data: Data

    /// Decodes `string`; nil when it is not a well-formed data: URL.
    init?(_ string: String) {
        guard string.count >= 5, string.prefix(5).lowercased() == "data:",
            let comma = string.firstIndex(of: ",")
        else { return nil }
        let header = string[string.index(string.startIndex, offsetBy: 5)..<comma]
        var parameters = header.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let isBase64 = parameters.count > 1 && parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let type = parameters.first?.percentDecoded ?? ""
        if type.isEmpty {
            mediaType = (["text/plain"] + parameters.dropFirst() + (parameters.count > 1 ? [] : ["charset=US-ASCII"]))
                .joined(separator: ";")
        } else {
            mediaType = parameters.joined(separator: ";")
        }
        guard let bytes = string[string.index(after: comma)...].percentDecodedBytes() else { return nil }
        if isBase64 {
            let text = String(decoding: bytes.filter { !$0.isASCIIWhitespace }, as: UTF8.self)
            let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
            guard let decoded = Data(base64Encoded: padded) else { return nil }
            data = decoded
        } else {
            data = Data(bytes)
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0a || self == 0x0d }
}
