import Foundation
import Testing
import WICacheDisk
#if canImport(Glibc)
import Glibc
#endif

@Suite struct TrimTests {
    @Test func entriesOlderThanMaxAgeAreRemoved() throws {
        let root = TestDirectory()
        let clock = TestClock()
        var configuration = DiskCache.Configuration.testing(clock: clock)
        configuration.maxAge = 1
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try cache.store(Data(count: 20), forKey: "old")
        #expect(try cache.removeExpired() == .init())
        #expect(cache.totalCount == 1)
        clock.advance(2)
        #expect(try cache.removeExpired() == .init(expiredCount: 1, removedBytes: 20))
        #expect(cache.totalCount == 0)
        #expect(cache.totalSize == 0)
        #expect(try cache.readData(forKey: "old") == nil)
    }

    @Test func negativeMaxAgeKeepsForever() throws {
        let root = TestDirectory()
        let clock = TestClock()
        var configuration = DiskCache.Configuration.testing(clock: clock)
        configuration.maxAge = -1
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try cache.store(Data(count: 5), forKey: "k")
        clock.advance(100 * 365 * 24 * 3600)
        #expect(try cache.removeExpired() == .init())
        #expect(cache.totalCount == 1)
    }

    @Test func accessDateKeepsReadEntriesAlive() throws {
        let root = TestDirectory()
        let clock = TestClock()
        var configuration = DiskCache.Configuration.testing(clock: clock)
        configuration.maxAge = 10
        configuration.expiryDate = .access
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try cache.store(Data([1]), forKey: "read")
        try cache.store(Data([2]), forKey: "unread")
        clock.advance(8)
        #expect(try cache.readData(forKey: "read") == Data([1]))  // sets its access date to now
        clock.advance(8)
        #expect(try cache.removeExpired() == .init(expiredCount: 1, removedBytes: 1))
        #expect(try cache.readData(forKey: "read") == Data([1]))
        #expect(try cache.readData(forKey: "unread") == nil)
        // The access date is on disk, set explicitly: another process sees it.
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.path(forKey: "read"))
        #expect((attributes[.modificationDate] as? Date) == Date(timeIntervalSince1970: 1_750_000_000))
        // With modification dates, reading does not matter.
        var byModification = configuration
        byModification.expiryDate = .modification
        let other = try DiskCache(directory: root.path, configuration: byModification)
        clock.advance(3)
        #expect(try other.removeExpired().expiredCount == 1)
    }

    @Test func sizeLimitRemovesA20ByteFileOverALimitOf10() throws {
        let root = TestDirectory()
        var configuration = DiskCache.Configuration.testing()
        configuration.sizeLimit = 10
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try cache.store(Data(count: 20), forKey: "20B")
        #expect(cache.totalSize == 20)
        #expect(try cache.removeExpired() == .init(evictedCount: 1, removedBytes: 20))
        #expect(cache.totalSize == 0)
        #expect(cache.totalCount == 0)
    }

    @Test func sizeTrimDeletesOldestFirstDownToTheRatio() throws {
        let root = TestDirectory()
        let clock = TestClock()
        var configuration = DiskCache.Configuration.testing(clock: clock)
        configuration.sizeLimit = 35  // 4 x 10 bytes = 40 > 35; target 17.5 -> keep one entry
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        for name in ["first", "second", "third", "fourth"] {
            try cache.store(Data(count: 10), forKey: name)
            clock.advance(1)
        }
        #expect(try cache.removeExpired() == .init(evictedCount: 3, removedBytes: 30))
        #expect(cache.containsData(forKey: "fourth"))
        #expect(!cache.containsData(forKey: "first") && !cache.containsData(forKey: "third"))
        // A ratio of 1 trims to the limit itself.
        configuration.trimRatio = 1
        configuration.sizeLimit = 25
        let ratioOne = try DiskCache(directory: root.path, configuration: configuration)
        for name in ["a", "b"] {
            try ratioOne.store(Data(count: 10), forKey: name)
            clock.advance(1)
        }
        #expect(try ratioOne.removeExpired() == .init(evictedCount: 1, removedBytes: 10))
        #expect(ratioOne.totalSize == 20)
        #expect(!ratioOne.containsData(forKey: "fourth"))
    }

    @Test func staleTemporaryFilesAreRemovedAndFreshOnesKept() throws {
        let root = TestDirectory()
        let clock = TestClock(Date())
        let cache = try DiskCache(directory: root.path, configuration: .testing(clock: clock))
        #expect(FileManager.default.createFile(atPath: root(".tmp-dead"), contents: Data(count: 100)))
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-7200)],
            ofItemAtPath: root(".tmp-dead"))
        #expect(FileManager.default.createFile(atPath: root(".tmp-writing"), contents: Data(count: 100)))
        try cache.removeExpired()
        #expect(root.names() == [".generation", ".lock", ".tmp-writing"])
        #expect(cache.totalCount == 0)  // temporary files are never entries
    }

    @Test func theTimerTrimsInTheBackground() async throws {
        let root = TestDirectory()
        let clock = TestClock()
        var configuration = DiskCache.Configuration.testing(clock: clock)
        configuration.maxAge = 1
        configuration.trimInterval = .milliseconds(50)
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try await cache.store(Data(count: 3), forKey: "k")
        clock.advance(5)
        var waited = 0
        while FileManager.default.fileExists(atPath: cache.path(forKey: "k")) && waited < 100 {
            try await Task.sleep(for: .milliseconds(20))
            waited += 1
        }
        #expect(!FileManager.default.fileExists(atPath: cache.path(forKey: "k")))
        #expect(cache.totalCount == 0)
    }

    @Test func aStoreOverTheLimitTrimsInTheBackground() throws {
        let root = TestDirectory()
        let clock = TestClock()
        var configuration = DiskCache.Configuration.testing(clock: clock)
        configuration.sizeLimit = 35  // the fourth 10-byte entry goes over; the trim keeps at most 17.5 bytes
        configuration.trimsWhenOverLimit = true
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        for name in ["first", "second", "third"] {
            try cache.store(Data(count: 10), forKey: name)
            clock.advance(1)
        }
        cache.waitForBackgroundTrims()
        #expect(cache.totalCount == 3)
        #expect(cache.totalSize == 30)
        try cache.store(Data(count: 10), forKey: "fourth")
        cache.waitForBackgroundTrims()
        #expect(cache.totalCount == 1)
        #expect(cache.totalSize == 10)
        #expect(try cache.readData(forKey: "fourth") == Data(count: 10))
        #expect(try cache.readData(forKey: "first") == nil)
        #expect(root.names() == [".generation", ".lock", DiskCache.fileName(forKey: "fourth")])
        // Another cache on the directory (a fresh index, as another process has) sees the same.
        let other = try DiskCache(directory: root.path, configuration: .testing(clock: clock))
        #expect(other.totalCount == 1)
        #expect(other.totalSize == 10)
    }

    @Test func aStoreOverTheLimitIsLeftAloneWhenAnotherProcessTrims() throws {
        let root = TestDirectory()
        var configuration = DiskCache.Configuration.testing()
        configuration.sizeLimit = 10
        configuration.trimsWhenOverLimit = true
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        // Another process's trim holds the lock file.
        let lock = open(root(".lock"), O_RDWR | O_CLOEXEC)
        #expect(lock >= 0)
        #expect(flock(lock, LOCK_EX) == 0)
        try cache.store(Data(count: 20), forKey: "big")
        cache.waitForBackgroundTrims()
        #expect(cache.totalSize == 20)  // skipped, not waited for
        #expect(flock(lock, LOCK_UN) == 0)
        close(lock)
        try cache.store(Data(count: 30), forKey: "bigger")
        cache.waitForBackgroundTrims()
        #expect(cache.totalCount == 0)  // 50 > 10: both go (target 5)
    }

    @Test func filesNotNamedByTheCacheAreEntriesToo() throws {
        let root = TestDirectory()
        var configuration = DiskCache.Configuration.testing()
        configuration.sizeLimit = 1
        configuration.trimRatio = 0
        let cache = try DiskCache(directory: root.path, configuration: configuration)
        try cache.store(Data(count: 10), forKey: "a")
        // Names that do not parse as <32 lowercase hex>[.ext]: kept whole, still counted and trimmed.
        let names = [
            ("notes.txt", 5), ("0123456789ABCDEF0123456789ABCDEF", 3), (String(repeating: "a", count: 32) + ".", 2),
        ]
        for (name, size) in names {
            #expect(FileManager.default.createFile(atPath: root(name), contents: Data(count: size)))
        }
        let other = try DiskCache(directory: root.path, configuration: configuration)
        #expect(other.totalCount == 4)
        #expect(other.totalSize == 20)
        #expect(try other.removeExpired() == .init(evictedCount: 4, removedBytes: 20))
        #expect(root.names() == [".generation", ".lock"])
    }
}
