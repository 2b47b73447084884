// wi-fault-probe: a helper process for WILoaderCurlTests (not a product). Alone in its process, it runs every fault
// of the loader's fault table (Faults.swift) with a fresh CurlImageLoader each and checks, on the whole process's
// /proc/self/fd, that each released loader left no descriptor open.
//
//   wi-fault-probe [--only NAME]... [--keep-loader NAME] [--stray-fd] [--settle SECONDS]
//
//   --only NAME         runs only that fault (repeatable); all of them by default
//   --keep-loader NAME  keeps that fault's loader alive to the end (a leak, to prove the count sees one)
//   --stray-fd          opens /dev/null during the first fault, without close-on-exec, and never closes it (a
//                       leak likewise, and an inheritable descriptor)
//   --settle SECONDS    how long to wait for the descriptors to come back after each fault (default 20)
//
// It first closes what it inherited beyond stdio (sockets, pipes and files the parent left open), then
// starts the test server (and nginx, for the TLS fault, when installed), makes one good load to open what the
// process keeps for good (SwiftNIO's and Dispatch's event descriptors), takes the baseline, then per fault: loads,
// waits until the loader has no easy handle alive, checks that the descriptors it opened since the baseline (its
// connections; see `isTheLoaders`) are close-on-exec, so that a child process the application starts does not
// inherit them, releases the loader, and polls until the descriptors equal the baseline.
// It prints
//
//   baseline: N descriptors
//   fault NAME: CODE, curl N, status N, transfers N, handles N, leaked N    (curl/status "-" when absent)
//     inheritable fd N -> TARGET                                            (open without close-on-exec)
//     leaked fd N -> TARGET                                                 (each descriptor left open)
//     closed fd N (was TARGET)                                              (a baseline descriptor gone)
//   skipped NAME: nginx is not installed
//   end: N descriptors, leaked N
//
// and exits 0 when nothing leaked, nothing was inheritable and every easy handle was freed, 1 otherwise, 64 on a
// bad argument.
import Foundation
import WICore
import WILoaderCurl
import WITestServer

struct ProbeError: Error, CustomStringConvertible {
    var description: String
}

struct Options {
    var only: Set<String> = []
    var keepLoader: String?
    var strayFD = false
    var settleSeconds = 20.0

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let flag = rest.popFirst() {
            switch flag {
            case "--stray-fd": strayFD = true
            case "--only", "--keep-loader", "--settle":
                guard let value = rest.popFirst() else { throw ProbeError(description: "\(flag) needs a value") }
                if flag == "--only" {
                    only.insert(value)
                } else if flag == "--keep-loader" {
                    keepLoader = value
                } else if let seconds = Double(value) {
                    settleSeconds = seconds
                } else {
                    throw ProbeError(description: "--settle takes seconds, not \(value)")
                }
            default: throw ProbeError(description: "unknown argument \(flag)")
            }
        }
        let unknown = only.union(keepLoader.map { [$0] } ?? []).subtracting(Fault.all.map(\.name))
        guard unknown.isEmpty else { throw ProbeError(description: "no fault named \(unknown.sorted())") }
    }
}

/// What one fault's load gave and left behind.
struct Outcome {
    var error: ImageError?
    var transfers: Int
    var handles: Int
    /// The descriptors once settled (or when the wait ran out).
    var after: Descriptors
    var leaked: [(fd: Int32, target: String)]
    /// Descriptors opened during the fault, found while the loader was still alive, that a child would inherit
    /// (described when found).
    var inheritable: [(fd: Int32, target: String)]
    /// Descriptors of the baseline that were closed (or now point elsewhere): not the loader's to close.
    var closed: [(fd: Int32, target: String)]

    var line: String {
        let code = error.map { codeNames[$0.code] ?? "code \($0.code.rawValue)" } ?? "no error"
        let curl = error.flatMap { curlCode(in: $0.message) }.map(String.init) ?? "-"
        let status = error?.statusCode.map(String.init) ?? "-"
        return
            "\(code), curl \(curl), status \(status), transfers \(transfers), handles \(handles), leaked \(leaked.count)"
    }
}

let codeNames: [ImageError.Code: String] = [
    .networkError: "networkError", .timedOut: "timedOut", .badServerResponse: "badServerResponse",
    .tooManyRedirects: "tooManyRedirects", .invalidDownloadContentType: "invalidDownloadContentType",
    .cancelled: "cancelled", .addressNotAllowed: "addressNotAllowed", .bodyTooLarge: "bodyTooLarge",
]

/// libcurl's code in a message that starts "curl error N: ".
func curlCode(in message: String) -> Int? {
    guard message.hasPrefix("curl error "), let number = message.dropFirst(11).split(separator: ":").first else {
        return nil
    }
    return Int(number)
}

func configuration(_ change: (inout CurlImageLoader.Configuration) -> Void = { _ in }) -> CurlImageLoader.Configuration
{
    var configuration = CurlImageLoader.Configuration()
    configuration.lowSpeedTime = 90  // the drip fault sets its own
    change(&configuration)
    return configuration
}

/// Loads `url` with `loader` and waits until its easy handle is freed (on the loader's thread, just after the
/// completion); returns the error and the handles still alive.
func load(_ url: URL, with loader: CurlImageLoader, settleSeconds: Double) async -> (ImageError?, handles: Int) {
    var error: ImageError?
    do { _ = try await loader.load(ImageLoading.Request(url: url)) } catch let failure { error = failure }
    let deadline = ContinuousClock.now + .seconds(settleSeconds)
    while loader.statistics.liveEasyHandles != 0 && ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(5))
    }
    return (error, loader.statistics.liveEasyHandles)
}

/// Whether an inheritable descriptor (described by `describe`) is one the loader should have made close-on-exec:
/// a file or pipe, or a TCP socket whose remote end is one of the servers (a client end: only the loader connects).
/// Not judged: libcurl 7.88's wakeup socket pair (a Unix pair it makes without close-on-exec; later releases set
/// it), the servers' own ends of the connections, and sockets closed before they could be described.
func isTheLoaders(_ described: String, serverPorts: Set<Int>) -> Bool {
    guard described.hasPrefix("socket:[") else { return true }
    guard described.contains("] tcp"), let remote = described.split(separator: ":").last, let port = Int(remote) else {
        return false
    }
    return serverPorts.contains(port)
}

/// The loaders `--keep-loader` keeps alive, and the descriptor `--stray-fd` opened.
var kept: [CurlImageLoader] = []
var stray: Int32 = -1

@MainActor func run(_ fault: Fault, servers: Servers, baseline: Descriptors, options: Options) async throws -> Outcome {
    let url = try await fault.url(servers)
    let (error, handles, transfers): (ImageError?, Int, Int)
    let inheritable: [(fd: Int32, target: String)]
    do {
        let loader = try CurlImageLoader(configuration: configuration(fault.configure))
        (error, handles) = await load(url, with: loader, settleSeconds: options.settleSeconds)
        transfers = loader.statistics.transfersStarted
        if options.keepLoader == fault.name { kept.append(loader) }
        if options.strayFD && stray < 0 { stray = open("/dev/null", O_RDONLY) }
        let serverPorts = Set([servers.http.port] + (servers.nginx.map { [$0.port] } ?? []))
        inheritable = Descriptors.current().opened(since: baseline).filter { !isCloseOnExec($0.fd) }
            .map { ($0.fd, describe($0.target)) }  // described now: the sockets are gone by the report
            .filter { isTheLoaders($0.1, serverPorts: serverPorts) }
    }
    let after = await Descriptors.poll(seconds: options.settleSeconds) { $0 == baseline }
    return Outcome(
        error: error, transfers: transfers, handles: handles, after: after,
        leaked: after.opened(since: baseline), inheritable: inheritable, closed: baseline.opened(since: after))
}

@MainActor func main() async -> Int32 {
    Descriptors.closeInherited()
    let options: Options
    do { options = try Options(CommandLine.arguments.dropFirst()) } catch {
        print("wi-fault-probe: \(error)")
        return 64
    }
    do {
        let servers = Servers(
            http: try await TestHTTPServer.start(),
            nginx: NginxServer.isAvailable ? try await NginxServer(files: ["a.png": Data([1])]) : nil)
        defer { servers.nginx?.stop() }
        // One good load first: what it opens for good (event descriptors of SwiftNIO's and Dispatch's loops) is
        // not the loader's; its own sockets (the connection, libcurl's wakeup pair) are closed once it is released.
        // The first sleep makes Dispatch open its timer descriptor (a timerfd it keeps for good): that must happen
        // before the baseline, not during the first fault's wait (seen as "leaked fd N -> anon_inode:[timerfd]"
        // when the warm-up settled without waiting).
        try await Task.sleep(for: .milliseconds(1))
        let start = Descriptors.current()
        servers.http.route("/warm-up") { _ in TestResponse(body: Data([1]), contentType: "image/png") }
        _ = await load(
            servers.http.url("/warm-up"), with: try CurlImageLoader(configuration: configuration()),
            settleSeconds: options.settleSeconds)
        var baseline = await Descriptors.poll(seconds: options.settleSeconds) {
            $0.sockets.isSubset(of: start.sockets) && $0 == Descriptors.current()  // and not changing
        }
        let first = baseline
        print("baseline: \(first.targets.count) descriptors")
        var clean = true
        for fault in Fault.all where options.only.isEmpty || options.only.contains(fault.name) {
            guard !fault.needsNginx || servers.nginx != nil else {
                print("skipped \(fault.name): nginx is not installed")
                continue
            }
            let outcome = try await run(fault, servers: servers, baseline: baseline, options: options)
            print("fault \(fault.name): \(outcome.line)")
            for (fd, target) in outcome.inheritable { print("  inheritable fd \(fd) -> \(target)") }
            for (fd, target) in outcome.leaked { print("  leaked fd \(fd) -> \(describe(target))") }
            for (fd, target) in outcome.closed { print("  closed fd \(fd) (was \(target))") }
            clean = clean && outcome.after == baseline && outcome.handles == 0 && outcome.inheritable.isEmpty
            // Judge the next fault on its own: what this one left open is its leak, already reported.
            baseline = outcome.after
        }
        let end = Descriptors.current()
        print("end: \(end.targets.count) descriptors, leaked \(end.opened(since: first).count)")
        return clean && end == first ? 0 : 1
    } catch {
        print("wi-fault-probe: \(error)")
        return 1
    }
}

exit(await main())
