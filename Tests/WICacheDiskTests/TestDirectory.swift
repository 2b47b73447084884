import Foundation
import Synchronization
import WICacheDisk
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp, removed (with everything in it) when the value goes away.
final class TestDirectory: Sendable {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "wi-disk-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    func callAsFunction(_ name: String) -> String { path + "/" + name }

    /// The names in `subdirectory` (or the directory itself), sorted.
    func names(in subdirectory: String? = nil) -> [String] {
        let folder = subdirectory.map { path + "/" + $0 } ?? path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}

/// A clock the tests move by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) { current = Mutex(start) }

    var now: Date { current.withLock { $0 } }

    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

extension DiskCache.Configuration {
    /// The settings most tests use: logical sizes, no background trims (timer or over the limit), the given clock.
    static func testing(clock: TestClock = TestClock()) -> Self {
        var configuration = DiskCache.Configuration()
        configuration.sizeAccounting = .logical
        configuration.trimInterval = nil
        configuration.trimsWhenOverLimit = false
        configuration.now = { clock.now }
        return configuration
    }
}

/// Mounting small tmpfs file systems (to fill a disk or make one read-only) needs root; elsewhere those tests skip.
enum Tmpfs {
    static let available: Bool = {
        guard geteuid() == 0 else { return false }
        let probe = TestDirectory()
        guard mount(probe.path, options: "size=16k") else { return false }
        unmount(probe.path)
        return true
    }()

    @discardableResult
    static func mount(_ path: String, options: String, type: String = "tmpfs") -> Bool {
        run(["/bin/mount", "-t", type, "-o", options, type, path])
    }

    @discardableResult
    static func remount(_ path: String, options: String) -> Bool {
        run(["/bin/mount", "-o", "remount," + options, path])
    }

    static func unmount(_ path: String) { run(["/bin/umount", path]) }

    @discardableResult
    private static func run(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
