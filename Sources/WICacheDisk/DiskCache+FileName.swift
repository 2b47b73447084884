import Foundation

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
    /// Thread safety: a pure function.
    public static func fileName(forKey key: String?) -> String {
        let key = key ?? ""
        let hash = MD5.hex(key.utf8)
        let ext = fileExtension(ofKey: key)
        return ext.isEmpty ? hash : hash + "." + ext
    }

    /// The sanitized path extension of `key` ("" when there is none or it is too long).
    static func fileExtension(ofKey key: String) -> String {
        var path = Substring(key)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        if let slash = path.lastIndex(of: "/") { path = path[path.index(after: slash)...] }
        guard let dot = path.lastIndex(of: "."), dot != path.startIndex else { return "" }
        let raw = String(path[path.index(after: dot)...])
        let decoded = raw.removingPercentEncoding ?? raw
        let clean = decoded.unicodeScalars.filter { $0 != ":" && $0 != "\0" && $0 != "/" }
        let ext = String(String.UnicodeScalarView(clean))
        return ext.utf8.count > maxFileExtensionLength ? "" : ext
    }
}
