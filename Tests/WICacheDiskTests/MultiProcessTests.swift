import Foundation
import Testing
import WICacheDisk
import WITestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite struct MultiProcessTests {
    static let stress = CommandRunner.productPath("wi-disk-stress")

    @Test func anIndexSeesEntriesAddedByAnotherOpener() throws {
        let root = TestDirectory()
        let first = try DiskCache(directory: root.path, configuration: .testing())
        let second = try DiskCache(directory: root.path, configuration: .testing())
        #expect(try first.readData(forKey: "x") == nil)  // builds first's index
        #expect(first.totalCount == 0)
        try second.store(Data([5]), forKey: "x")  // bumps the shared generation
        #expect(try first.readData(forKey: "x") == Data([5]))
        #expect(first.containsData(forKey: "x"))
        #expect(first.totalCount == 1)
        try second.remove(forKey: "x")
        #expect(try first.readData(forKey: "x") == nil)  // indexed, but gone: a miss, and unindexed
        #expect(first.totalCount == 0)
    }

    @Test func aMissIsAnsweredByTheIndexUntilTheGenerationMoves() throws {
        let root = TestDirectory()
        let first = try DiskCache(directory: root.path, configuration: .testing())
        let second = try DiskCache(directory: root.path, configuration: .testing())
        #expect(try first.readData(forKey: "warm-up") == nil)
        // A file dropped in by hand does not bump the shared generation: the index answers the miss by itself,
        // without looking on disk.
        let sneaked = DiskCache.fileName(forKey: "sneaked")
        #expect(FileManager.default.createFile(atPath: root(sneaked), contents: Data([1])))
        #expect(try first.readData(forKey: "sneaked") == nil)
        #expect(!first.containsData(forKey: "sneaked"))
        // Once another opener stores something, misses look on disk and find it.
        try second.store(Data([2]), forKey: "other")
        #expect(try first.readData(forKey: "sneaked") == Data([1]))
        try FileManager.default.removeItem(atPath: root(sneaked))
        // After more such misses than max(256, entries), the directory is scanned again and misses are free again.
        for index in 0..<300 { #expect(!first.containsData(forKey: "absent\(index)")) }
        #expect(FileManager.default.createFile(atPath: root(sneaked), contents: Data([3])))
        #expect(try first.readData(forKey: "sneaked") == nil)
        #expect(first.totalCount == 1)
        try first.removeExpired()  // a trim rescans too
        #expect(try first.readData(forKey: "sneaked") == Data([3]))
    }

    @Test func twoProcessesWriteAndTrimTheSameDirectory() throws {
        let root = TestDirectory()
        let processes = try (1...2).map { seed in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.stress)
            process.arguments = ["write", root.path, "\(seed)", "400"]
            try process.run()
            return process
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let verify = try CommandRunner.run(Self.stress, ["verify", root.path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains(" bad=0 "))
        let cache = try DiskCache(directory: root.path, configuration: .testing())
        #expect(cache.totalCount == root.names().filter { !$0.hasPrefix(".") }.count)
    }

    /// 20 kills in `make test`; `make soak` sets WI_SOAK_CRASH_ROUNDS for a longer run.
    @Test func aWriterKilledAtRandomNeverLeavesAPartialEntry() throws {
        let root = TestDirectory()
        var generator = SeededRandom(seed: 5)
        for round in 0..<Soak.count("WI_SOAK_CRASH_ROUNDS", default: 20) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.stress)
            process.arguments = ["write", root.path, "\(round + 10)"]
            try process.run()
            usleep(UInt32.random(in: 20_000...120_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
        }
        let verify = try CommandRunner.run(Self.stress, ["verify", root.path])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.contains(" bad=0 "))
        #expect(!verify.stdout.hasPrefix("files=0 "))  // the writers got far enough to leave entries
    }
}
