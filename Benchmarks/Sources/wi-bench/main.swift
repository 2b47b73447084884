// wi-bench: runs one named workload through the project's code and prints its timing, so that
// `Benchmarks/compare` can interleave it with the reference programs (raw C loops, Pillow, vipsthumbnail).
// Output: one line `seconds <per-op seconds>` (plus `rss_mib <peak>` where relevant) on stdout.
import BenchSupport
import Foundation
import Synchronization
import WebImage

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("wi-bench: \(message)\n".utf8))
    exit(2)
}

func run() throws {
    var args = Array(CommandLine.arguments.dropFirst())
    guard !args.isEmpty else {
        fail(
            "usage: wi-bench decode-sets | decode N FILE... | thumb N SIZE FILE | thumb-file SIZE IN OUT | "
                + "thumb-many SIZE CONCURRENCY FILE... | disk-prepare DIR | disk-read N DIR | disk-write N DIR | "
                + "disk-dir COUNT DIR | loader-fetch LIST | e2e LIST CACHE_ROOT | "
                + "redis-hits PORT DIR N")
    }
    let command = args.removeFirst()
    func int(_ i: Int) -> Int {
        guard i < args.count, let value = Int(args[i]) else { fail("\(command): argument \(i + 1) must be a number") }
        return value
    }
    switch command {
    case "decode-sets":
        for (format, _) in DecodeSets.files {
            print(format, DecodeSets.paths(format).joined(separator: " "))
        }
    case "decode":
        let iterations = int(0)
        let files = args.dropFirst().map { BenchPaths.read($0) }
        for data in files { _ = try Workloads.decode(data) }  // warm-up
        let seconds = try BenchClock.seconds {
            for _ in 0..<iterations { for data in files { _ = try Workloads.decode(data) } }
        }
        print("seconds", seconds / Double(iterations))
    case "thumb":
        let iterations = int(0)
        let size = int(1)
        let data = BenchPaths.read(args[2])
        _ = try Workloads.thumbnail(data, size: size)
        let seconds = try BenchClock.seconds {
            for _ in 0..<iterations { _ = try Workloads.thumbnail(data, size: size) }
        }
        print("seconds", seconds / Double(iterations))
    case "thumb-file":
        let data = BenchPaths.read(args[1])
        try Workloads.thumbnailJPEG(data, size: int(0)).write(to: URL(fileURLWithPath: args[2]))
    case "thumb-many":
        try thumbMany(size: int(0), concurrency: int(1), paths: Array(args.dropFirst(2)))
    case "disk-prepare":
        print(try DiskWorkloads.prepareRead(args[0]))
    case "disk-read":
        let iterations = int(0)
        let cache = try DiskWorkloads.open(args[1])
        guard try cache.readData(forKey: DiskWorkloads.readKey)?.count == DiskWorkloads.entry20KB.count else {
            fail("disk-read: run disk-prepare first")
        }
        let seconds = try BenchClock.seconds {
            for _ in 0..<iterations { _ = try cache.readData(forKey: DiskWorkloads.readKey) }
        }
        print("seconds", seconds / Double(iterations))
    case "disk-write":
        let iterations = int(0)
        let cache = try DiskWorkloads.open(args[1])
        let seconds = try BenchClock.seconds {
            for i in 0..<iterations { try cache.store(DiskWorkloads.entry20KB, forKey: "write-\(i).jpg") }
        }
        print("seconds", seconds / Double(iterations))
    case "disk-dir":
        try diskDirectory(count: int(0), directory: args[1])
    case "loader-fetch":
        try loaderFetch(listPath: args[0])
    case "e2e":
        endToEnd(listPath: args[0], cacheRoot: args[1])
    case "redis-hits":
        try redisHits(port: int(0), directory: args[1], iterations: int(2))
    default:
        if try runCPUCommand(command, args) { return }
        fail("unknown workload \(command)")
    }
}

/// Thumbnails every file with `concurrency` tasks at once; prints the wall time and the peak RSS.
func thumbMany(size: Int, concurrency: Int, paths: [String]) throws {
    let next = Atomic<Int>(0)
    let seconds = BenchClock.seconds {
        DispatchQueue.concurrentPerform(iterations: concurrency) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < paths.count else { return }
                guard let data = FileManager.default.contents(atPath: paths[index]) else {
                    fail("cannot read \(paths[index])")
                }
                do {
                    _ = try Workloads.thumbnail(data, size: size)
                } catch {
                    fail("\(paths[index]): \(error)")
                }
            }
        }
    }
    print("seconds", seconds / Double(paths.count))
    print("rss_mib", BenchClock.peakRSSMiB)
}

/// Fills a directory with `count` small entries, then times the first query of a newly opened cache (one
/// directory scan builds the index) and a trim (limit half the total, trim ratio 0.5). The raw floors in the same
/// run: readdir + fstatat of every entry (what any scan must do), and unlink of as many files as the trim removed.
func diskDirectory(count: Int, directory: String) throws {
    try DiskWorkloads.populate(directory, count: count)
    var present = false
    let firstQuery = try BenchClock.seconds {
        let cache = try DiskWorkloads.open(directory)
        present = cache.containsData(forKey: DiskWorkloads.populatedKey(count / 2))
    }
    guard present else { fail("disk-dir: entry missing after populate") }
    // The floor scan lists the same 100k entries as the first query did (before the trim removes most of them).
    let rawScan = BenchClock.seconds { _ = rawScanDirectory(directory) }
    let cache = try DiskWorkloads.open(directory)
    let limit = cache.totalSize / 2
    let trimmer = try DiskWorkloads.open(directory, sizeLimit: limit)
    var result = DiskCache.TrimResult()
    let trim = try BenchClock.seconds { result = try trimmer.removeExpired() }
    guard result.evictedCount > 0 else { fail("disk-dir: the trim evicted nothing") }
    let victims = rawScanDirectory(directory).filter { !$0.hasPrefix(".") }.prefix(result.evictedCount)
    let rawUnlink = BenchClock.seconds {
        for name in victims { unlink(directory + "/" + name) }
    }
    print("first_query", firstQuery)
    print("raw_scan", rawScan)
    print("trim", trim)
    print("raw_unlink", rawUnlink * Double(result.evictedCount) / Double(max(victims.count, 1)))
    print("evicted", result.evictedCount)
}

/// readdir + fstatat of every entry of `directory`; returns the names.
func rawScanDirectory(_ directory: String) -> [String] {
    guard let dir = opendir(directory) else { fail("opendir \(directory)") }
    defer { closedir(dir) }
    let fd = dirfd(dir)
    var names: [String] = []
    var status = stat()
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
            String(cString: bytes.bindMemory(to: CChar.self).baseAddress!)
        }
        if name == "." || name == ".." { continue }
        if fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 { names.append(name) }
    }
    return names
}

do {
    try run()
} catch {
    fail("\(error)")
}
