#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WIHash

extension DiskCache {
    /// The longest extension kept in a file name: NAME_MAX (255) minus 32 hex digits minus the dot, as SDWebImage.
    public static let maxFileExtensionLength = 222

    /// The file name an entry for `key` has: the lowercase MD5 hex of the key's UTF-8 bytes, plus the key's path
    /// extension when it is short and clean. Stable across processes, runs and versions (the same names as
    /// SDWebImage's `SDDiskCache`, so a cache directory copied from it can be read as an extra read-only path).
    ///
    /// The extension is the one of the key's path: after the last "." of the last path segment, before any "?" or
    /// "#" (dots in a query do not count), percent-decoded. ":" and NUL are removed (SDWebImage's rule), and "/"
    /// too (Linux forbids it in a name); an extension longer than `maxFileExtensionLength` UTF-8 bytes is dropped.
    /// A nil key names the entry of the empty string.
    ///
    /// ```swift
    /// DiskCache.fileName(forKey: "https://example.com/a.jpg?w=2")   // "<32 hex digits>.jpg"
    /// ```
    ///
    /// Thread safety: a pure function with no shared state; call it from any thread.
    public static func fileName(forKey key: String?) -> String { deriveEntryName(key ?? "").string }

    /// How many recent names a cache remembers (`recentNames`) before forgetting them all at once.
    static let recentNamesLimit = 1024

    /// The entry name for `key`, without building the file name's string; the names of this cache's hot ASCII keys
    /// come from its `recentNames`, skipping the MD5 and the extension rules. Only ASCII keys: `String` equality is
    /// canonical equivalence, so "\u{212A}" (Kelvin sign) equals "K" although their bytes, and so their names, differ.
    func entryName(forKey key: String) -> EntryName {
        var key = key
        guard key.withUTF8({ bytes in !bytes.contains { $0 >= 0x80 } }) else { return Self.deriveEntryName(key) }
        if let name = recentNames.withLock({ $0[key] }) { return name }
        let name = Self.deriveEntryName(key)
        recentNames.withLock { names in
            if names.count >= Self.recentNamesLimit { names.removeAll(keepingCapacity: true) }
            names[key] = name
        }
        return name
    }

    /// The MD5 of `key` and its sanitized extension.
    private static func deriveEntryName(_ key: String) -> EntryName {
        var key = key
        // Native strings are contiguous UTF-8 already; others are made so once.
        return key.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            let digest = MD5.digest(raw)
            if let ext = asciiExtension(of: raw) {
                return EntryName(digest: digest, extension: String(decoding: ext, as: UTF8.self))
            }
            // Non-ASCII, or an extension to percent-decode or clean: Character rules and Foundation's decoding.
            return EntryName(digest: digest, extension: fileExtension(ofKey: String(decoding: bytes, as: UTF8.self)))
        }
    }

    /// The sanitized extension of an all-ASCII key whose extension has no "%" (what the Character rules and
    /// percent-decoding would give, read off the bytes); nil for any other key.
    static func asciiExtension(of key: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer.SubSequence? {
        var end = key.count
        for (i, byte) in key.enumerated() {
            if byte >= 0x80 { return nil }  // a combining mark could join a "." into another Character
            if (byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")) && end == key.count { end = i }
        }
        var start = 0
        var dot: Int?
        var i = end
        while i > 0 {
            i -= 1
            let byte = key[i]
            if byte == UInt8(ascii: "/") {
                start = i + 1
                break
            }
            if byte == UInt8(ascii: ".") && dot == nil { dot = i }
        }
        guard let dot, dot != start else { return key[0..<0] }
        let ext = key[(dot + 1)..<end]
        if ext.contains(UInt8(ascii: "%")) { return nil }
        if ext.contains(where: { $0 == UInt8(ascii: ":") || $0 == 0 }) {
            return nil  // rare: the general path filters them
        }
        return ext.count > maxFileExtensionLength ? key[0..<0] : ext
    }

    /// The sanitized path extension of `key` ("" when there is none or it is too long).
    static func fileExtension(ofKey key: String) -> String {
        var path = Substring(key)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        if let slash = path.lastIndex(of: "/") { path = path[path.index(after: slash)...] }
        guard let dot = path.lastIndex(of: "."), dot != path.startIndex else { return "" }
        let raw = String(path[path.index(after: dot)...])
        let decoded = raw.percentDecoded ?? raw
        let clean = decoded.unicodeScalars.filter { $0 != ":" && $0 != "\0" && $0 != "/" }
        let ext = String(String.UnicodeScalarView(clean))
        return ext.utf8.count > maxFileExtensionLength ? "" : ext
    }
}
