import Foundation
import Testing
import WITestServer
import WITestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `wi prefetch` on a terminal: its standard output is a pseudo-terminal (openpty), so it draws the progress bar,
/// rewriting one line with a carriage return per finished URL, and prints the summary under it.
@Suite struct PrefetchTerminalTests {
    let wi = CommandRunner.productPath("wi")

    /// Runs `wi arguments` with standard output on a new pseudo-terminal and standard error on a pipe; returns
    /// the exit status, everything the terminal received (until the last writer closed it) and standard error.
    func runOnTerminal(_ arguments: [String]) throws -> (status: Int32, terminal: String, stderr: String) {
        var primary: Int32 = -1
        var secondary: Int32 = -1
        try #require(openpty(&primary, &secondary, nil, nil, nil) == 0, "openpty: errno \(errno)")
        defer { close(primary) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wi)
        process.arguments = arguments
        process.standardOutput = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            close(secondary)
            throw error
        }
        close(secondary)  // the child holds its own copy: reading ends (EIO) once the child exits
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(primary, &buffer, buffer.count)
            if count > 0 {
                received.append(contentsOf: buffer[..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: received, as: UTF8.self),
            String(decoding: stderr, as: UTF8.self)
        )
    }

    /// The rate, the ETA and the run time vary from run to run: they become `R`, `E` and `T`.
    func masked(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"[0-9]+\.[0-9]/s  ETA [0-9]+s"#, with: "R/s  ETA Es", options: .regularExpression
        )
        .replacingOccurrences(of: #" in [0-9]+\.[0-9]{2} s"#, with: " in T s", options: .regularExpression)
    }

    @Test func theProgressBarRewritesOneLineThenTheSummaryFollows() async throws {
        let server = try await TestHTTPServer.start()
        let png = Fixtures.data("formats/sample.png")
        let jpeg = Fixtures.data("formats/sample.jpg")
        server.route("/a.png") { _ in TestResponse(body: png, contentType: "image/png") }
        server.route("/b.jpg") { _ in TestResponse(body: jpeg, contentType: "image/jpeg") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wi-tty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("urls.txt")
        let missing = server.url("/missing.png").absoluteString
        try [server.url("/a.png").absoluteString, missing, server.url("/b.jpg").absoluteString]
            .joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let run = try runOnTerminal([
            "prefetch", "--from", list.path, "--cache-dir", directory.appendingPathComponent("cache").path,
            "--concurrency", "1",
        ])
        #expect(run.status == 1)  // one URL failed
        let clear = "\r\u{1B}[K"
        // The terminal turns each "\n" into "\r\n" (ONLCR).
        #expect(
            masked(run.terminal)
                == clear + "[" + String(repeating: "#", count: 10) + String(repeating: ".", count: 20)
                + "]  1/3  R/s  ETA Es"
                + clear + "[" + String(repeating: "#", count: 20) + String(repeating: ".", count: 10)
                + "]  2/3  R/s  ETA Es"
                + clear + "[" + String(repeating: "#", count: 30) + "]  3/3  R/s  ETA Es"
                + "\r\n"
                + "prefetched 3: 2 loaded, 0 from memory, 0 from disk, 1 failed, \(png.count + jpeg.count) bytes in T s\r\n",
            "\(run.terminal.debugDescription)")
        // The failure is reported on standard error, clearing the bar's line first.
        #expect(
            run.stderr == clear + "wi prefetch: \(missing): 2001: unacceptable status code 404\n",
            "\(run.stderr.debugDescription)")
        #expect(server.requestCount("/a.png") == 1 && server.requestCount("/b.jpg") == 1)
        await server.stop()
    }
}
