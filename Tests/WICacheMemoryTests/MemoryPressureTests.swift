import Foundation
import Synchronization
import Testing
import WICore
@testable import WICacheMemory

@Suite struct MemoryPressureTests {
    @Test func warningTrimsToTheRatioCriticalEmpties() throws {
        let source = FakePressureSource()
        var cache: MemoryCache? = try MemoryCache(
            configuration: .init(costLimit: 10_000, usesWeakTier: false, pressureTrimRatio: 0.5, shardCount: 1),
            pressureSource: source)
        for index in 0..<10 { cache?.setImage(makeImage(cost: 100), forKey: "k\(index)") }
        #expect(source.subscriberCount == 1)
        source.fire(.warning)
        #expect(cache?.totalCost == 500)
        #expect(present(cache!, (0..<10).map { "k\($0)" }) == ["k5", "k6", "k7", "k8", "k9"])
        source.fire(.warning)
        #expect(cache?.totalCost == 200)  // half of 500, rounded down to whole entries
        source.fire(.critical)
        #expect(cache?.count == 0)
        #expect(cache?.statistics.evictions == 10)
        cache = nil
        #expect(source.subscriberCount == 0)  // the cache unsubscribes when it goes away
    }

    @Test func trimToCostAndRemoveAll() {
        let cache = makeCache(costLimit: 10_000)
        for index in 0..<10 { cache.setImage(makeImage(cost: 100), forKey: "k\(index)") }
        cache.trim(toCost: 350)
        #expect(cache.totalCost == 300)
        cache.trim(toCost: 1000)
        #expect(cache.totalCost == 300)
        cache.removeAll()
        #expect(cache.totalCost == 0 && cache.count == 0)
    }

    @Test func parsesPSIAndCgroupEvents() {
        let psi = "some avg10=12.50 avg60=3.00 avg300=0.10 total=123\nfull avg10=1.25 avg60=0.00 avg300=0.00 total=4\n"
        #expect(PressureReading.parsePSI(psi) == PressureReading(someAverage10: 12.5, fullAverage10: 1.25))
        #expect(PressureReading.parsePSI("garbage") == nil)
        let events = "low 0\nhigh 7\nmax 2\noom 1\noom_kill 1\n"
        #expect(PressureReading.parseEvents(events) == PressureReading(high: 7, max: 2, oom: 1))
        var tracker = PressureTracker(warningSome: 10, criticalFull: 10)
        #expect(tracker.update(PressureReading(someAverage10: 5)) == nil)
        #expect(tracker.update(PressureReading(someAverage10: 10)) == .warning)
        #expect(tracker.update(PressureReading(someAverage10: 30)) == nil)  // still warning: no repeat
        #expect(tracker.update(PressureReading(someAverage10: 30, fullAverage10: 10)) == .critical)
        #expect(tracker.update(PressureReading()) == nil)
        #expect(tracker.update(PressureReading(high: 1)) == .warning)  // counter moved
        #expect(tracker.update(PressureReading(high: 1)) == nil)
        #expect(tracker.update(PressureReading(high: 1, max: 1)) == .critical)
    }

    /// The real source polling files the test writes.
    @Test(arguments: [false, true]) func linuxSourceReportsRises(cgroup: Bool) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wi-pressure-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: path) }
        func write(_ text: String) throws { try Data(text.utf8).write(to: path, options: .atomic) }
        func psi(_ some: Double, _ full: Double) -> String {
            "some avg10=\(some) avg60=0.00 avg300=0.00 total=0\nfull avg10=\(full) avg60=0.00 avg300=0.00 total=0\n"
        }
        func events(_ high: Int, _ max: Int) -> String { "low 0\nhigh \(high)\nmax \(max)\noom 0\noom_kill 0\n" }
        try write(cgroup ? events(0, 0) : psi(0, 0))
        let source = LinuxMemoryPressureSource(
            mode: cgroup ? .cgroupEvents(path.path) : .psi(path.path),
            interval: .milliseconds(5))
        let seen = Mutex<[MemoryPressureLevel]>([])
        let token = source.subscribe { level in seen.withLock { $0.append(level) } }
        func waitFor(_ count: Int) async throws {
            for _ in 0..<1_000 where seen.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(5)) }
        }
        try await Task.sleep(for: .milliseconds(300))  // the first reading is the baseline
        try write(cgroup ? events(1, 0) : psi(25, 0))
        try await waitFor(1)
        try write(cgroup ? events(1, 3) : psi(25, 40))
        try await waitFor(2)
        token.cancel()  // returns once the polling thread has ended
        try write(cgroup ? events(0, 0) : psi(0, 0))
        try write(cgroup ? events(5, 5) : psi(90, 90))
        #expect(seen.withLock { $0 } == [.warning, .critical])  // nothing after cancel: no thread is left to call
    }

    @Test func detectsWhatThisMachineOffers() {
        let mode = LinuxMemoryPressureSource.detectMode()
        if FileManager.default.isReadableFile(atPath: "/proc/pressure/memory") {
            #expect(mode == .psi("/proc/pressure/memory"))
        } else {
            #expect(mode != .psi("/proc/pressure/memory"))
        }
        #expect(
            LinuxMemoryPressureSource.detectMode(psiPath: "/nonexistent", cgroupPath: "/nonexistent") == .unavailable)
    }
}
