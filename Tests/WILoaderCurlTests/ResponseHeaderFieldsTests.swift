import Testing
@testable import WILoaderCurl

@Suite struct ResponseHeaderFieldsTests {
    /// The fields after feeding `lines` one at a time, as libcurl's header callback does.
    private func parse(_ lines: [[UInt8]]) -> [String: String] {
        var parser = ResponseHeaderFields()
        for line in lines { line.withUnsafeBytes { parser.add(line: $0) } }
        return parser.fields
    }

    private func parse(_ lines: [String]) -> [String: String] { parse(lines.map { Array($0.utf8) }) }

    @Test func namesLowerCasedValuesTrimmed() {
        let fields = parse([
            "HTTP/1.1 200 OK\r\n", "Content-Type: image/png\r\n", "Content-Length: 20480\r\n",
            "ETag: \"abc\"\r\n", "X-Empty:\r\n", "\r\n",
        ])
        #expect(fields == ["content-type": "image/png", "content-length": "20480", "etag": "\"abc\"", "x-empty": ""])
    }

    @Test func repeatedFieldsJoined() {
        let fields = parse([
            "HTTP/1.1 200 OK\r\n", "Cache-Control: no-cache\r\n", "cache-control: max-age=0\r\n",
            "CACHE-CONTROL:  private \r\n",
        ])
        #expect(fields == ["cache-control": "no-cache, max-age=0, private"])
    }

    @Test func statusLineStartsOver() {
        let fields = parse([
            "HTTP/1.1 301 Moved Permanently\r\n", "Location: /b\r\n", "Content-Length: 0\r\n", "\r\n",
            "HTTP/1.1 100 Continue\r\n", "X-Interim: 1\r\n", "\r\n",
            "HTTP/2 200\r\n", "content-length: 7\r\n", "\r\n",
        ])
        #expect(fields == ["content-length": "7"])
    }

    @Test func oddWhitespace() {
        let fields = parse([
            "HTTP/1.1 200 OK\r\n", " \tX-A \t:\t  one two \t\r\n", "X-B:three\n", "X-C: four\u{0B}\u{0C}\r\n",
            "X-D: a: b \r\n", "X-E:   \r\n",
        ])
        #expect(fields == ["x-a": "one two", "x-b": "three", "x-c": "four", "x-d": "a: b", "x-e": ""])
    }

    @Test func linesWithoutColonIgnored() {
        let fields = parse(["HTTP/1.1 200 OK\r\n", "X-A: 1\r\n", " folded continuation\r\n", "garbage\r\n", "\r\n", ""])
        #expect(fields == ["x-a": "1"])
    }

    @Test func nonASCIIBytesInValues() {
        let cafe: [UInt8] = Array("X-Name:  caf".utf8) + [0xC3, 0xA9] + Array(" \r\n".utf8)
        let invalid: [UInt8] = Array("X-Bad: a".utf8) + [0xFF, 0xC3] + Array(" \r\n".utf8)
        let nbsp: [UInt8] =
            Array("X-Nbsp: ".utf8) + [0xC2, 0xA0] + Array("v".utf8) + [0xC2, 0xA0] + Array("\r\n".utf8)
        let name: [UInt8] = Array("X-".utf8) + [0xC3, 0x89] + Array("T: 1\r\n".utf8)
        let fields = parse([Array("HTTP/1.1 200 OK\r\n".utf8), cafe, invalid, nbsp, name])
        #expect(
            fields == [
                "x-name": "caf\u{E9}", "x-bad": "a\u{FFFD}\u{FFFD}", "x-nbsp": "\u{A0}v\u{A0}",
                "x-\u{C9}t": "1",
            ])
    }

    @Test func removeAllForgetsFields() {
        var parser = ResponseHeaderFields()
        Array("ETag: x\r\n".utf8).withUnsafeBytes { parser.add(line: $0) }
        #expect(parser.fields == ["etag": "x"])
        parser.removeAll()
        #expect(parser.fields.isEmpty)
    }
}
