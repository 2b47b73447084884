#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which sources `--allow-source` lets the service fetch: URL prefixes and host patterns. No pattern: all.
///
/// Thread safety: an immutable value.
struct SourcePolicy: Sendable {
    /// URL prefixes: the scheme and authority (lower case, compared whole), and the start of the path.
    private let prefixes: [(origin: String, path: String)]
    private let hosts: [[Substring]]

    /// `patterns` as `ServeConfiguration.allowedSources` describes them.
    init(patterns: [String]) {
        prefixes = patterns.filter { $0.contains("://") }.map { pattern in
            let (origin, path) = Self.split(pattern)
            return (origin.lowercased(), path)
        }
        hosts = patterns.filter { !$0.contains("://") }.map {
            $0.lowercased().split(separator: "*", omittingEmptySubsequences: false)
        }
    }

    /// Whether `url` may be fetched: no pattern at all, a prefix whose scheme and authority are the URL's and whose
    /// path starts it, or a host pattern its host matches.
    func allows(_ url: URL) -> Bool {
        guard !prefixes.isEmpty || !hosts.isEmpty else { return true }
        let (origin, path) = Self.split(url.absoluteString)
        if prefixes.contains(where: { origin.lowercased() == $0.origin && path.hasPrefix($0.path) }) { return true }
        guard let host = url.host?.lowercased() else { return false }
        return hosts.contains { Self.matches(host, $0) }
    }

    /// A URL's text cut after its authority: `https://a.example:8080` and `/images/x.png?v=2`.
    private static func split(_ text: String) -> (String, String) {
        guard let scheme = text.firstRange(of: "://") else { return (text, "") }
        let end = text[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        return (String(text[..<end]), String(text[end...]))
    }

    /// Whether `host` matches the pattern split at its `*`s (each `*` any run of characters, dots included).
    private static func matches(_ host: String, _ parts: [Substring]) -> Bool {
        guard parts.count > 1 else { return host == parts.first.map(String.init) }
        let first = parts[0]
        let last = parts[parts.count - 1]
        guard host.count >= first.count + last.count, host.hasPrefix(first), host.hasSuffix(last) else { return false }
        var rest = Substring(host).dropFirst(first.count).dropLast(last.count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.firstRange(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
