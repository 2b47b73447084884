import WIHash

/// An entry's file name as the index keys it: for a name the cache makes (`<32 lowercase hex digits>` or
/// `<32 hex digits>.<extension>`) its 16-byte digest and extension, for any other file its whole name. `String`
/// stores up to 15 UTF-8 bytes inline, so indexing a directory of the cache's own files allocates nothing per
/// entry, and hashing one costs little more than hashing two words.
struct EntryName: Hashable, Sendable {
    private var digest: MD5.Digest
    /// The extension ("" for none) of a cache-made name, or the whole name of any other file.
    private var rest: String
    private var isHashName: Bool

    /// The name `<hex of digest>[.ext]`.
    init(digest: MD5.Digest, extension ext: String) {
        self.digest = digest
        rest = ext
        isHashName = true
    }

    /// The name whose UTF-8 bytes are `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        if bytes.count == 32 || (bytes.count > 33 && bytes[32] == UInt8(ascii: ".")),
            let digest = MD5.Digest(hex: UnsafeRawBufferPointer(rebasing: bytes[0..<32]))
        {
            self.init(digest: digest, extension: String(decoding: bytes[min(33, bytes.count)...], as: UTF8.self))
        } else {
            self.init(otherName: String(decoding: bytes, as: UTF8.self))
        }
    }

    private init(otherName: String) {
        digest = MD5.Digest(low: 0, high: 0)
        rest = otherName
        isHashName = false
    }

    /// The name `name`.
    init(_ name: String) {
        var name = name
        self = name.withUTF8 { EntryName(UnsafeRawBufferPointer($0)) }
    }

    /// The file name.
    var string: String { path(prefix: "") }

    /// `prefix` followed by the file name, built in one allocation.
    func path(prefix: String) -> String {
        guard isHashName else { return prefix + rest }
        var prefix = prefix
        var ext = rest
        return prefix.withUTF8 { head in
            ext.withUTF8 { tail in
                let length = head.count + 32 + (tail.isEmpty ? 0 : 1 + tail.count)
                return String(unsafeUninitializedCapacity: length) { buffer in
                    let out = UnsafeMutableRawBufferPointer(buffer)
                    UnsafeMutableRawBufferPointer(rebasing: out[0..<head.count]).copyMemory(
                        from: UnsafeRawBufferPointer(head))
                    digest.writeHex(to: UnsafeMutableRawBufferPointer(rebasing: out[head.count..<head.count + 32]))
                    if !tail.isEmpty {
                        out[head.count + 32] = UInt8(ascii: ".")
                        UnsafeMutableRawBufferPointer(rebasing: out[(head.count + 33)...])
                            .copyMemory(from: UnsafeRawBufferPointer(tail))
                    }
                    return length
                }
            }
        }
    }
}

extension EntryName {
    /// Calls `body` with the file name as a NUL-terminated C string, built on the stack for a cache-made name.
    func withCString<R>(_ body: (UnsafePointer<CChar>) -> R) -> R {
        guard isHashName else { return rest.withCString(body) }
        var ext = rest
        return ext.withUTF8 { tail in
            withUnsafeTemporaryAllocation(byteCount: 34 + tail.count, alignment: 1) { buffer in
                digest.writeHex(to: buffer)
                var end = 32
                if !tail.isEmpty {
                    buffer[32] = UInt8(ascii: ".")
                    UnsafeMutableRawBufferPointer(rebasing: buffer[33..<(33 + tail.count)])
                        .copyMemory(from: UnsafeRawBufferPointer(tail))
                    end = 33 + tail.count
                }
                buffer[end] = 0
                return body(buffer.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
        }
    }
}
