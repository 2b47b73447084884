#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import WICore

// What wi took from full Foundation (NSString paths, String(format:), FileHandle): the few pieces it needs, so
// that the command links FoundationEssentials only (no ICU data, no libFoundation: a faster start).

/// Writes `text` to standard error (unbuffered, as `FileHandle.standardError` did).
func writeToStandardError(_ text: String) { writeAll(text, to: STDERR_FILENO) }

/// Writes `text` to standard output at once, bypassing stdio's buffer (a long-running command's status lines).
func writeToStandardOutput(_ text: String) { writeAll(text, to: STDOUT_FILENO) }

private func writeAll(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}

/// `value` with exactly `places` decimals, rounded half away from zero ("%.2f" for the values wi prints).
func decimal(_ value: Double, places: Int) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int64((abs(value) * Double(scale)).rounded())
    var fraction = String(scaled % scale)
    fraction = String(repeating: "0", count: max(0, places - fraction.count)) + fraction
    return (value < 0 && scaled != 0 ? "-" : "") + String(scaled / scale) + (places > 0 ? "." + fraction : "")
}

extension String {
    /// This path with `component` appended after one "/".
    func appendingPath(_ component: String) -> String { hasSuffix("/") ? self + component : self + "/" + component }

    /// The last component of this path ("b.png" of "/a/b.png").
    var lastPathComponent: String { URL(fileURLWithPath: self).lastPathComponent }

    /// The extension of this path's last component, without the dot ("" when none).
    var pathExtension: String { URL(fileURLWithPath: self).pathExtension }

    /// The name without its extension ("b" of "b.png").
    var deletingPathExtension: String {
        guard let dot = lastIndex(of: "."), dot != startIndex, !self[dot...].contains("/") else { return self }
        return String(self[..<dot])
    }

    /// This path with a leading "~" or "~/" replaced by the home directory.
    var expandingTilde: String {
        guard self == "~" || hasPrefix("~/") else { return self }
        return SystemFile.homeDirectory + dropFirst()
    }
}
