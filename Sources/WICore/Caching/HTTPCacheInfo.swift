#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The validators and freshness of one cached original, read from its HTTP response head (RFC 9111).
///
/// Thread safety: a value type; safe to share and use from any thread.
public struct HTTPCacheInfo: Sendable, Hashable {
    /// The ETag validator, as the server sent it (quotes and weak prefix kept).
    public var etag: String?
    /// The Last-Modified validator, as the server sent it.
    public var lastModified: String?
    /// When the response was generated: its Date header, or the time it was received.
    public var date: Date
    /// How long the response stays fresh after `date`, in seconds (s-maxage, max-age, then Expires), or nil.
    public var freshnessLifetime: Int?
    /// Seconds a stale response may still be served while it is revalidated (`stale-while-revalidate`), or nil.
    public var staleWhileRevalidate: Int?
    /// `no-cache`: the response must be revalidated before every use.
    public var noCache: Bool
    /// `no-store`: the response must not be written to a persistent cache.
    public var noStore: Bool
    /// `must-revalidate`: once stale, the response must not be served without revalidation.
    public var mustRevalidate: Bool

    /// Creates a value from its parts.
    public init(
        etag: String? = nil, lastModified: String? = nil, date: Date, freshnessLifetime: Int? = nil,
        staleWhileRevalidate: Int? = nil, noCache: Bool = false, noStore: Bool = false,
        mustRevalidate: Bool = false
    ) {
        self.etag = etag
        self.lastModified = lastModified
        self.date = date
        self.freshnessLifetime = freshnessLifetime
        self.staleWhileRevalidate = staleWhileRevalidate
        self.noCache = noCache
        self.noStore = noStore
        self.mustRevalidate = mustRevalidate
    }

    /// Reads a response head (`headers` names lowercased); `now` is the time it was received.
    public init(headers: [String: String], now: Date) {
        let directives = Self.directives(headers["cache-control"] ?? "")
        let date = headers["date"].flatMap(Self.parseHTTPDate) ?? now
        var lifetime = directives["s-maxage"].flatMap(Self.seconds) ?? directives["max-age"].flatMap(Self.seconds)
        if lifetime == nil, let expires = headers["expires"] {
            // An invalid Expires (such as "0") means already expired.
            let when = Self.parseHTTPDate(expires)
            lifetime = when.map { max(0, Int($0.timeIntervalSince(date).rounded(.down))) } ?? 0
        }
        self.init(
            etag: headers["etag"].flatMap(Self.nonEmpty), lastModified: headers["last-modified"].flatMap(Self.nonEmpty),
            date: date, freshnessLifetime: lifetime,
            staleWhileRevalidate: directives["stale-while-revalidate"].flatMap(Self.seconds),
            noCache: directives["no-cache"] != nil || headers["pragma"]?.lowercased() == "no-cache",
            noStore: directives["no-store"] != nil, mustRevalidate: directives["must-revalidate"] != nil)
    }

    /// Whether a conditional request can be made (an ETag or a Last-Modified is known).
    public var hasValidators: Bool { etag != nil || lastModified != nil }

    /// The age of the response at `now`, in seconds (never negative).
    public func age(at now: Date) -> Int { max(0, Int(now.timeIntervalSince(date).rounded(.down))) }

    /// Whether the response may be used at `now` without revalidation.
    public func isFresh(at now: Date) -> Bool {
        guard !noCache, let lifetime = freshnessLifetime else { return false }
        return age(at: now) < lifetime
    }

    /// Seconds past its freshness lifetime at `now` (0 while fresh).
    public func staleness(at now: Date) -> Int { max(0, age(at: now) - (freshnessLifetime ?? 0)) }

    /// This value renewed by a 304 answer's head received at `now`: a new date and freshness; validators the
    /// 304 repeats or changes replace the stored ones, the others are kept.
    public func renewed(by headers: [String: String], now: Date) -> HTTPCacheInfo {
        var renewed = HTTPCacheInfo(headers: headers, now: now)
        renewed.etag = renewed.etag ?? etag
        renewed.lastModified = renewed.lastModified ?? lastModified
        return renewed
    }

    // MARK: Serialization

    /// A compact text form (one `key=value` field a line, absent fields left out), for cache tiers to store.
    public func serialized() -> Data {
        var lines = ["v=1", "d=\(Int64(date.timeIntervalSince1970.rounded(.down)))"]
        if let etag { lines.append("e=\(etag)") }
        if let lastModified { lines.append("l=\(lastModified)") }
        if let freshnessLifetime { lines.append("f=\(freshnessLifetime)") }
        if let staleWhileRevalidate { lines.append("s=\(staleWhileRevalidate)") }
        let flags = (noCache ? "c" : "") + (noStore ? "n" : "") + (mustRevalidate ? "m" : "")
        if !flags.isEmpty { lines.append("x=\(flags)") }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// Reads `serialized()`'s form; nil for anything else (a missing date, an unknown version, bad numbers).
    public init?(serialized data: Data) {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        var fields: [Character: Substring] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "="), let key = line.first,
                line.index(after: line.startIndex) == equals
            else { return nil }
            fields[key] = line[line.index(after: equals)...]
        }
        guard fields["v"] == "1", let seconds = fields["d"].flatMap({ Int64($0) }) else { return nil }
        func number(_ key: Character) -> Int?? {
            guard let value = fields[key] else { return .some(nil) }
            guard let parsed = Int(value), parsed >= 0 else { return nil }
            return .some(parsed)
        }
        guard let lifetime = number("f"), let swr = number("s") else { return nil }
        let flags = fields["x"] ?? ""
        guard flags.allSatisfy({ "cnm".contains($0) }) else { return nil }
        self.init(
            etag: fields["e"].map(String.init), lastModified: fields["l"].map(String.init),
            date: Date(timeIntervalSince1970: TimeInterval(seconds)), freshnessLifetime: lifetime,
            staleWhileRevalidate: swr, noCache: flags.contains("c"), noStore: flags.contains("n"),
            mustRevalidate: flags.contains("m"))
    }

    // MARK: Parsing

    /// Cache-Control directives, names lowercased, values unquoted ("" for a directive without a value).
    static func directives(_ header: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let name = pieces.first?.trimmingSpacesAndTabs().lowercased(), !name.isEmpty else {
                continue
            }
            var value = pieces.count > 1 ? pieces[1].trimmingSpacesAndTabs() : ""
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            if result[name] == nil { result[name] = value }
        }
        return result
    }

    /// A delta-seconds value; nil when not a non-negative integer; huge values clamp to Int32.max (RFC 9111 1.2.2).
    static func seconds(_ value: String) -> Int? {
        guard !value.isEmpty, value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) else { return nil }
        return Int(value).map { min($0, Int(Int32.max)) } ?? Int(Int32.max)
    }

    private static func nonEmpty(_ value: String) -> String? {
        let trimmed = value.trimmingSpacesAndTabs()
        return trimmed.isEmpty ? nil : trimmed
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// `date` as an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), whole seconds (rounded down).
    package static func formatHTTPDate(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let seconds = total - days * 86_400
        // Civil date of a day count since 1970-01-01 (Howard Hinnant's civil_from_days).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 7) % 7
        // Every answer's Expires: written into its bytes (string interpolation cost 0.8% of a cached answer). The year
        // takes four digits, or what it needs past 9999.
        return String(unsafeUninitializedCapacity: 48) { bytes in
            var at = 0
            func put(_ text: String) {
                for byte in text.utf8 {
                    bytes[at] = byte
                    at += 1
                }
            }
            func digits(_ value: Int, _ count: Int) {
                var value = value
                for offset in stride(from: count - 1, through: 0, by: -1) {
                    bytes[at + offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                at += count
            }
            put(weekdays[weekday])
            put(", ")
            digits(day, 2)
            put(" ")
            put(monthNames[month - 1])
            put(" ")
            if (0...9999).contains(year) { digits(year, 4) } else { put(String(year)) }
            put(" ")
            digits(seconds / 3600, 2)
            put(":")
            digits(seconds / 60 % 60, 2)
            put(":")
            digits(seconds % 60, 2)
            put(" GMT")
            return at
        }
    }

    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    private static let monthNames = months.map { $0.prefix(1).uppercased() + $0.dropFirst() }

    /// An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), the form RFC 9110 requires senders to use; nil otherwise.
    package static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), (1...31).contains(day),
            let month = months.firstIndex(of: parts[2].lowercased()), let year = Int(parts[3]),
            (1...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month < 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = (month + 10) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second))
    }
}
