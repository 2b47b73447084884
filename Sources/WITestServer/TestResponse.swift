import Foundation

/// What the test server answers, and how it puts the body on the wire.
///
/// Thread safety: a value type; safe to send and share.
public struct TestResponse: Sendable {
    /// How the body is framed.
    public enum Framing: Sendable {
        /// `Content-Length`, then the body.
        case contentLength
        /// `Transfer-Encoding: chunked`, in chunks of this many bytes.
        case chunked(Int)
        /// Neither: the body ends when the server closes the connection.
        case untilClose
    }

    public var status: Int
    /// Header fields in order (Content-Length and Transfer-Encoding are added from `framing`).
    public var headers: [(String, String)]
    public var body: Data
    public var framing: Framing
    /// Send the body in pieces of `chunk` bytes, one every `interval` seconds (a slow or drip-feeding server).
    public var drip: (chunk: Int, interval: Double)?
    /// After this many body bytes, wait until the gate opens (the piece that would cross it is cut there).
    public var hold: (afterBytes: Int, gate: TestGate)?
    /// Close the connection after this many body bytes, announcing the whole length first (a reset mid-body).
    public var closeAfter: Int?
    /// Wait this many seconds before sending anything.
    public var delay: Double = 0
    /// Send nothing until this gate opens (a response held before its head).
    public var gate: TestGate?

    public init(
        status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), contentType: String? = nil,
        framing: Framing = .contentLength
    ) {
        self.status = status
        self.headers = headers
        if let contentType { self.headers.append(("Content-Type", contentType)) }
        self.body = body
        self.framing = framing
    }

    /// This response, its body sent `chunk` bytes every `interval` seconds.
    public func dripping(_ chunk: Int, every interval: Double) -> TestResponse {
        var copy = self
        copy.drip = (chunk, interval)
        return copy
    }

    /// This response, sent after `seconds`.
    public func delayed(by seconds: Double) -> TestResponse {
        var copy = self
        copy.delay = seconds
        return copy
    }

    /// This response, its connection closed after `bytes` of the body.
    public func cut(after bytes: Int) -> TestResponse {
        var copy = self
        copy.closeAfter = bytes
        return copy
    }

    /// This response, sent once `gate` opens.
    public func held(by gate: TestGate) -> TestResponse {
        var copy = self
        copy.gate = gate
        return copy
    }

    /// A redirect to `location` (absolute or relative).
    public static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: [("Location", location)])
    }

    /// A resource with validators: answers 304 to a matching If-None-Match, 206 to a Range request whose
    /// If-Range matches (200 with the whole body when it does not), and advertises `Accept-Ranges: bytes`.
    public static func resource(
        _ body: Data, etag: String, contentType: String = "image/png",
        request: TestHTTPServer.Request
    ) -> TestResponse {
        let common = [("ETag", etag), ("Accept-Ranges", "bytes")]
        if request.headers["if-none-match"] == etag { return TestResponse(status: 304, headers: common) }
        if let range = request.headers["range"], range.hasPrefix("bytes="), range.hasSuffix("-"),
            request.headers["if-range"].map({ $0 == etag }) ?? true,
            let start = Int(range.dropFirst(6).dropLast()), start < body.count
        {
            return TestResponse(
                status: 206, headers: common + [("Content-Range", "bytes \(start)-\(body.count - 1)/\(body.count)")],
                body: body.subdata(in: start..<body.count), contentType: contentType)
        }
        return TestResponse(headers: common, body: body, contentType: contentType)
    }

    /// A cacheable resource as an origin or a CDN serves it: `ETag`, `Last-Modified`, `Cache-Control` and `Date`
    /// when given, and 304 Not Modified (no body, the same validators and freshness) when the request's
    /// If-None-Match lists the ETag (weak comparison, or `*`), or, without If-None-Match, its If-Modified-Since is
    /// the Last-Modified date or later.
    public static func cacheable(
        _ body: Data, etag: String? = nil, lastModified: String? = nil,
        cacheControl: String? = nil, date: String? = nil, contentType: String = "image/png",
        request: TestHTTPServer.Request
    ) -> TestResponse {
        var headers: [(String, String)] = []
        if let etag { headers.append(("ETag", etag)) }
        if let lastModified { headers.append(("Last-Modified", lastModified)) }
        if let cacheControl { headers.append(("Cache-Control", cacheControl)) }
        if let date { headers.append(("Date", date)) }
        let notModified: Bool
        if let tags = request.headers["if-none-match"] {
            let strip = { (tag: Substring) in
                tag.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "W/", with: "")
            }
            notModified =
                etag.map { etag in
                    tags.split(separator: ",").contains { strip($0) == "*" || strip($0) == strip(Substring(etag)) }
                } ?? false
        } else if let since = request.headers["if-modified-since"].flatMap(HTTPDate.parse),
            let modified = lastModified.flatMap(HTTPDate.parse)
        {
            notModified = modified <= since
        } else {
            notModified = false
        }
        if notModified { return TestResponse(status: 304, headers: headers) }
        return TestResponse(headers: headers, body: body, contentType: contentType)
    }

    /// `then` when the request carries Basic credentials `user`:`password`, else 401 asking for them.
    public static func basicAuth(
        user: String, password: String, request: TestHTTPServer.Request,
        then response: TestResponse
    ) -> TestResponse {
        let expected = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        if request.headers["authorization"] == expected { return response }
        return TestResponse(
            status: 401, headers: [("WWW-Authenticate", "Basic realm=\"test\"")],
            body: Data("unauthorized".utf8), contentType: "text/plain")
    }

    /// `body` gzip-encoded (`Content-Encoding: gzip`).
    public static func gzip(_ body: Data, contentType: String = "image/png") -> TestResponse {
        TestResponse(headers: [("Content-Encoding", "gzip")], body: Gzip.stored(body), contentType: contentType)
    }
}

/// Gzip streams made of stored (uncompressed) deflate blocks: valid gzip any decoder reads, without zlib.
enum Gzip {
    static func stored(_ data: Data) -> Data {
        var out = Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff])  // magic, deflate, no flags, mtime 0, OS unknown
        let bytes = [UInt8](data)
        var offset = 0
        repeat {
            let count = min(65535, bytes.count - offset)
            let final: UInt8 = offset + count == bytes.count ? 1 : 0
            out.append(final)
            out.append(contentsOf: [
                UInt8(count & 0xff), UInt8(count >> 8), UInt8(~count & 0xff), UInt8((~count >> 8) & 0xff),
            ])
            out.append(contentsOf: bytes[offset..<offset + count])
            offset += count
        } while offset < bytes.count
        for value in [crc32(bytes), UInt32(truncatingIfNeeded: bytes.count)] {
            out.append(contentsOf: [
                UInt8(value & 0xff), UInt8((value >> 8) & 0xff), UInt8((value >> 16) & 0xff), UInt8(value >> 24),
            ])
        }
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") parsing and formatting for the test server.
public enum HTTPDate {
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    /// The date `text` names, or nil.
    public static func parse(_ text: String) -> Date? { formatter().date(from: text) }

    /// `date` as an IMF-fixdate.
    public static func format(_ date: Date) -> String { formatter().string(from: date) }
}
