import Foundation
import Testing
import WICore
import WITestServer
import WITestSupport

/// Every fault the loader meets on the network gives its typed error and leaves nothing open: no easy handle alive
/// and, once the loader is released, not one more file descriptor in the whole process; while it lives, its
/// connections are close-on-exec (a program the application starts inherits none).
///
/// The faults run in `wi-fault-probe` (Tests/FaultProbe), a process of their own: this one runs its suites in
/// parallel, each opening and closing sockets, so its /proc/self/fd total says nothing about one loader.
@Suite struct CurlLoaderFaultTests {
    static let probe = CommandRunner.productPath("wi-fault-probe")

    @Test func everyFaultGivesItsTypedErrorAndLeavesNoDescriptorOpen() async throws {
        let result = try await runProbe([])
        let tls = "TLS with a self-signed certificate"
        #expect(
            faultLines(result) == [
                "fault reset mid-body: networkError, curl 18, status -, transfers 1, handles 0, leaked 0",
                "fault slow drip past the low-speed limit: timedOut, curl 28, status -, transfers 1, handles 0, leaked 0",
                "fault no answer before the total timeout: timedOut, curl 28, status -, transfers 1, handles 0, leaked 0",
                "fault 500: badServerResponse, curl -, status 500, transfers 1, handles 0, leaked 0",
                "fault redirect loop: tooManyRedirects, curl 47, status -, transfers 1, handles 0, leaked 0",
                "fault wrong content type: invalidDownloadContentType, curl -, status 200, transfers 1, handles 0, leaked 0",
                "fault connection refused: networkError, curl 7, status -, transfers 1, handles 0, leaked 0",
                "fault unresolvable host: networkError, curl 6, status -, transfers 1, handles 0, leaked 0",
                NginxServer.isAvailable
                    ? "fault \(tls): networkError, curl 60, status -, transfers 1, handles 0, leaked 0"
                    : "skipped \(tls): nginx is not installed",
            ], "\(result.stdout)")
        #expect(!result.stdout.contains("inheritable fd"), "\(result.stdout)")
        let baseline = try #require(number(after: "baseline: ", in: result))
        #expect(result.stdout.hasSuffix("end: \(baseline) descriptors, leaked 0\n"), "\(result.stdout)")
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// The check sees a leak: a loader kept alive after the redirect loop keeps libcurl's wakeup socket pair (a
    /// Unix socket pair in Debian 12's libcurl 7.88) and the connection it keeps for reuse, whose server end stays
    /// open too (the server runs in the same process).
    @Test func theProbeReportsALoaderKeptAlive() async throws {
        let result = try await runProbe(["--only", "redirect loop", "--keep-loader", "redirect loop", "--settle", "2"])
        #expect(
            faultLines(result) == [
                "fault redirect loop: tooManyRedirects, curl 47, status -, transfers 1, handles 0, leaked 4"
            ])
        let leaked = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  leaked fd ") }
        #expect(leaked.count(where: { $0.hasSuffix(" unix") }) == 2, "\(result.stdout)")
        #expect(leaked.count(where: { $0.contains("] tcp 127.0.0.1:") }) == 2, "\(result.stdout)")
        #expect(result.stdout.hasSuffix("leaked 4\n"), "\(result.stdout)")
        #expect(result.status == 1)
    }

    /// The check sees any descriptor, not only sockets: one /dev/null opened (without close-on-exec) and never
    /// closed is both inheritable and leaked.
    @Test func theProbeReportsAStrayDescriptor() async throws {
        let result = try await runProbe(["--only", "500", "--stray-fd", "--settle", "2"])
        #expect(
            faultLines(result) == ["fault 500: badServerResponse, curl -, status 500, transfers 1, handles 0, leaked 1"]
        )
        let leaked = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  leaked fd ") }
        #expect(leaked.count == 1 && leaked[0].hasSuffix(" -> /dev/null"), "\(result.stdout)")
        let inheritable = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  inheritable fd ") }
        #expect(inheritable.count == 1 && inheritable[0].hasSuffix(" -> /dev/null"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("leaked 1\n"), "\(result.stdout)")
        #expect(result.status == 1)
    }

    @Test func theProbeRefusesAFaultItDoesNotHave() async throws {
        let result = try await runProbe(["--only", "teapot"])
        #expect(result.stdout == "wi-fault-probe: no fault named [\"teapot\"]\n")
        #expect(result.status == 64)
    }

    /// Runs the probe off the task pool (it takes seconds) and returns what it printed.
    private func runProbe(_ arguments: [String]) async throws -> CommandRunner.Result {
        let pool = WorkerPool(name: "probe", threads: 1)
        defer { pool.shutdown() }
        return try await pool.run { () throws -> CommandRunner.Result in try CommandRunner.run(Self.probe, arguments) }
    }

    /// The probe's "fault ..." and "skipped ..." lines.
    private func faultLines(_ result: CommandRunner.Result) -> [String] {
        result.stdout.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("fault ") || $0.hasPrefix("skipped ")
        }
    }

    private func number(after prefix: String, in result: CommandRunner.Result) -> Int? {
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count).prefix { $0.isNumber }) }
    }
}
