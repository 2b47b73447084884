// The in-process CPU-bound workloads of wi-bench: decode of every frame and thumbnails over file sets (WebP, GIF,
// APNG, HEIC), WITransform resize and blur, and the memory cache against NSCache. Each prints `seconds <per-op>`
// and what it produced (`frames`, `pixels`, hit counts) for Benchmarks/compare to check.
//   decode-frames N FILE...            full decode (every frame) of each file
//   thumb-set N SIZE FILE...           decode of each file to a thumbnail fitting SIZE x SIZE
//   thumb-set-srgb N SIZE FILE...      the same converted to sRGB with each file's profile (WIColor)
//   thumb-jpeg N SIZE QUALITY FILE...  the same, then a JPEG encode at QUALITY (0-100; a thumbnail service's request)
//   thumb-png N SIZE FILE...           the same, then a PNG encode (the coder's defaults; a service's PNG request)
//   resize N W H FILE | blur N RADIUS FILE   WITransform on the decoded file
//   color N PROFILE FILE               the decoded file's RGBA8 pixels converted to sRGB from the ICC PROFILE (WIColor)
//   cache-mixed N THREADS clock|tinylfu      N operations (80% reads) over 10k keys on MemoryCache
//   nscache-mixed N THREADS bridged|nsstring the same on NSCache (String keys bridged per call, or NSStrings made once)
//   cache-floor N THREADS [locked]     the same load with no cache: what the harness and a returned image cost
//                                      (locked: plus one uncontended lock and unlock per operation, 1 thread;
//                                      dictionary: plus a lookup in a locked Dictionary, 1 thread)
//   cache-hit clock|tinylfu|floor | nscache-hit bridged|nsstring   median hit time (floor: no cache)
//   cache-hitratio                     hit ratios of LRU, CLOCK and W-TinyLFU on the Zipf and scan traces
import BenchSupport
import Foundation
import Synchronization
import WebImage

/// Runs one of the commands above; returns false when `command` is not one of them.
func runCPUCommand(_ command: String, _ args: [String]) throws -> Bool {
    func int(_ i: Int) -> Int {
        guard i < args.count, let value = Int(args[i]) else { fail("\(command): argument \(i + 1) must be a number") }
        return value
    }
    switch command {
    case "decode-frames":
        let files = args.dropFirst().map { BenchPaths.read($0) }
        try timedPasses(int(0)) { () throws(ImageError) in try CodecWorkloads.decodeAll(files) }
    case "thumb-set", "thumb-set-srgb":
        let size = int(1)
        let files = args.dropFirst(2).map { BenchPaths.read($0) }
        let target: DecodeOptions.TargetColorSpace = command == "thumb-set" ? .preserve : .sRGB
        try timedPasses(int(0)) { () throws(ImageError) in
            try CodecWorkloads.thumbnailAll(files, size: size, colorSpace: target)
        }
    case "thumb-jpeg", "thumb-png":
        let png = command == "thumb-png"
        let size = int(1)
        let quality = png ? 1 : Double(int(2)) / 100
        let files = args.dropFirst(png ? 2 : 3).map { BenchPaths.read($0) }
        try timedPasses(int(0)) { () throws(ImageError) in
            var counts = CodecWorkloads.Counts()
            for data in files {
                let image = try Workloads.thumbnail(data, size: size)
                _ = try Workloads.coders.encode(image, as: png ? .png : .jpeg, options: EncodeOptions(quality: quality))
                counts.frames += 1
                counts.pixels += image.width * image.height
            }
            return counts
        }
    case "resize", "blur":
        guard args.count >= 3, let number = Double(args[1]) else { fail("\(command): missing or bad arguments") }
        let transform: CodecWorkloads.Transform =
            command == "resize"
            ? .resize(width: int(1), height: int(2)) : .blur(radius: number)
        let image = try CodecWorkloads.transformInput(args[args.count - 1])
        let transformer = try transform.transformer()
        try timedPasses(int(0)) { () throws(ImageError) in
            var counts = CodecWorkloads.Counts()
            let output = try transformer.transform(image)
            counts.frames = output.frameCount
            counts.pixels = output.width * output.height
            return counts
        }
    case "color":
        guard args.count >= 3 else { fail("color: N PROFILE FILE") }
        let metadata = ImageMetadata(iccProfile: BenchPaths.read(args[1]))
        let pixels = try Workloads.coders.decode(BenchPaths.read(args[2]), options: DecodeOptions()).pixels
        let converter = LittleCMSConverter()
        try timedPasses(int(0)) { () throws(ImageError) in
            guard let converted = try converter.convertToSRGB(pixels, describedBy: metadata, keep16Bit: false) else {
                throw ImageError(.badImageData, "Little CMS could not use \(args[1])")
            }
            var counts = CodecWorkloads.Counts()
            counts.frames = 1
            counts.pixels = converted.width * converted.height
            return counts
        }
    case "cache-mixed":
        try cacheMixed(operations: int(0), threads: int(1), policy: policy(args[2]))
    case "cache-floor" where args.count > 2 && args[2] == "locked":
        lockedCacheFloor(operations: int(0))
    case "cache-floor" where args.count > 2 && args[2] == "dictionary":
        dictionaryCacheFloor(operations: int(0))
    case "cache-floor":
        cacheFloor(operations: int(0), threads: int(1))
    case "nscache-mixed":
        nsCacheMixed(operations: int(0), threads: int(1), bridged: bridged(args[2]))
    case "cache-hit" where args.first == "floor":
        let keys = CacheWorkloads.keys
        printHit(CacheWorkloads.medianHitSeconds { FloorCache.image(forKey: keys[$0], index: $0) != nil })
    case "cache-hit":
        let cache = try CacheWorkloads.filledMemoryCache(policy: policy(args[0]))
        let keys = CacheWorkloads.keys
        printHit(CacheWorkloads.medianHitSeconds { cache.image(forKey: keys[$0]) != nil })
    case "nscache-hit":
        let keys = CacheWorkloads.keys
        let nsKeys = keys.map { $0 as NSString }
        let cache = CacheWorkloads.filledNSCache(keys: nsKeys)
        printHit(
            bridged(args[0])
                ? CacheWorkloads.medianHitSeconds { cache.object(forKey: keys[$0] as NSString) != nil }
                : CacheWorkloads.medianHitSeconds { cache.object(forKey: nsKeys[$0]) != nil })
    case "cache-hitratio":
        for (name, warmUp, trace) in HitRatioTraces.traces() {
            for policy in HitRatioTraces.Policy.allCases {
                let ratios = try HitRatioTraces.run(policy, warmUp: warmUp, trace: trace)
                print("\(name)_\(policy.rawValue)", ratios.all)
                print("\(name)_\(policy.rawValue)_zipf", ratios.zipf)
            }
        }
    default:
        return false
    }
    return true
}

/// One untimed pass (its counts are printed), then `iterations` timed passes; prints the time of one pass.
func timedPasses(_ iterations: Int, _ pass: () throws(ImageError) -> CodecWorkloads.Counts) throws {
    let counts = try pass()
    let seconds = try BenchClock.seconds {
        for _ in 0..<iterations { _ = try pass() }
    }
    print("seconds", seconds / Double(iterations))
    print("frames", counts.frames)
    print("pixels", counts.pixels)
}

func policy(_ name: String) -> MemoryCache.EvictionPolicy {
    switch name {
    case "clock": .clock
    case "tinylfu": .tinyLFU
    default: fail("unknown policy \(name) (clock, tinylfu)")
    }
}

func bridged(_ name: String) -> Bool {
    switch name {
    case "bridged": true
    case "nsstring": false
    default: fail("unknown key kind \(name) (bridged: String converted per call, nsstring: NSStrings made once)")
    }
}

/// 1M-style mixed load on MemoryCache: prints the time per operation and the reads that hit (all of them must).
func cacheMixed(operations count: Int, threads: Int, policy: MemoryCache.EvictionPolicy) throws(ImageError) {
    let operations = CacheWorkloads.mixedOperations(count: count, seed: 1)
    let cache = try CacheWorkloads.filledMemoryCache(policy: policy)
    let keys = CacheWorkloads.keys
    let values = CacheWorkloads.values
    let (seconds, cpu, hits) = runMixedTimed(
        operations, threads: threads,
        read: { cache.image(forKey: keys[$0]) != nil },
        write: { cache.setImage(values[$0], forKey: keys[$0]) })
    printMixed(seconds: seconds, cpu: cpu, hits: hits, operations: operations)
}

/// The same load without a cache: a read finds the image by the operation's index (no hashing, no lock, no
/// table) after reading the key's length, and returns it retained; a write hands key and image to a function that
/// keeps nothing. What is left is what every cache pays in this harness: fetching the key, retaining and releasing
/// it and the image (the image objects lie spread over the heap, so that retain is usually a cache miss), the
/// closure calls. A cache cannot run a mixed operation faster than this.
func cacheFloor(operations count: Int, threads: Int) {
    let operations = CacheWorkloads.mixedOperations(count: count, seed: 1)
    let keys = CacheWorkloads.keys
    let values = CacheWorkloads.values
    let (seconds, cpu, hits) = runMixedTimed(
        operations, threads: threads,
        read: { FloorCache.image(forKey: keys[$0], index: $0) != nil },
        write: { FloorCache.setImage(values[$0], forKey: keys[$0]) })
    printMixed(seconds: seconds, cpu: cpu, hits: hits, operations: operations)
}

/// The floor's stand-in for a cache; not inlined, so the key and image cross a call as they do into a cache.
enum FloorCache {
    @inline(never)
    static func image(forKey key: String, index: Int) -> Image? {
        key.utf8.count > 0 ? CacheWorkloads.values[index] : nil
    }

    @inline(never)
    static func setImage(_ image: Image, forKey key: String) {
        if key.utf8.count == 0 { print(image.cost) }
    }
}

/// The floor plus the least a cache that guards its table with a lock pays: one `Mutex` lock and unlock per
/// operation, on one thread (uncontended), around a counter. No hashing, no table, no recency: a locked cache
/// cannot be faster than this on one thread.
func lockedCacheFloor(operations count: Int) {
    let operations = CacheWorkloads.mixedOperations(count: count, seed: 1)
    let keys = CacheWorkloads.keys
    let values = CacheWorkloads.values
    let floor = LockedFloorCache()
    let (seconds, cpu, hits) = runMixedTimed(
        operations, threads: 1,
        read: { floor.image(forKey: keys[$0], index: $0) != nil },
        write: { floor.setImage(values[$0], forKey: keys[$0]) })
    printMixed(seconds: seconds, cpu: cpu, hits: hits, operations: operations)
}

/// The locked floor plus a hash lookup: the standard library's `Dictionary` of every key's image behind one lock,
/// on one thread. No limits, no eviction policy, no statistics: what finding a key by its hash adds to the locked
/// floor before anything a cache does with it.
func dictionaryCacheFloor(operations count: Int) {
    let operations = CacheWorkloads.mixedOperations(count: count, seed: 1)
    let keys = CacheWorkloads.keys
    let values = CacheWorkloads.values
    let table = DictionaryFloorCache(Dictionary(uniqueKeysWithValues: zip(keys, values)))
    let (seconds, cpu, hits) = runMixedTimed(
        operations, threads: 1,
        read: { table.image(forKey: keys[$0]) != nil },
        write: { table.setImage(values[$0], forKey: keys[$0]) })
    printMixed(seconds: seconds, cpu: cpu, hits: hits, operations: operations)
}

/// A `Dictionary` behind one lock.
final class DictionaryFloorCache: Sendable {
    private let table: Mutex<[String: Image]>

    init(_ table: [String: Image]) { self.table = Mutex(table) }

    @inline(never)
    func image(forKey key: String) -> Image? {
        table.withLock { $0[key] }
    }

    @inline(never)
    func setImage(_ image: Image, forKey key: String) {
        table.withLock { $0[key] = image }
    }
}

/// `FloorCache` behind one lock.
final class LockedFloorCache: Sendable {
    private let operations = Mutex(0)

    @inline(never)
    func image(forKey key: String, index: Int) -> Image? {
        operations.withLock { $0 &+= 1 }
        return FloorCache.image(forKey: key, index: index)
    }

    @inline(never)
    func setImage(_ image: Image, forKey key: String) {
        operations.withLock { $0 &+= 1 }
        FloorCache.setImage(image, forKey: key)
    }
}

/// The same load on NSCache with the same keys, values and costs.
func nsCacheMixed(operations count: Int, threads: Int, bridged: Bool) {
    let operations = CacheWorkloads.mixedOperations(count: count, seed: 1)
    let keys = CacheWorkloads.keys
    let values = CacheWorkloads.values
    let nsKeys = keys.map { $0 as NSString }
    let box = UncheckedSendable((cache: CacheWorkloads.filledNSCache(keys: nsKeys), keys: nsKeys))
    let (seconds, cpu, hits) =
        bridged
        ? runMixedTimed(
            operations, threads: threads,
            read: { box.value.cache.object(forKey: keys[$0] as NSString) != nil },
            write: {
                box.value.cache.setObject(
                    values[$0], forKey: keys[$0] as NSString,
                    cost: values[$0].cost)
            })
        : runMixedTimed(
            operations, threads: threads,
            read: { box.value.cache.object(forKey: box.value.keys[$0]) != nil },
            write: {
                box.value.cache.setObject(
                    values[$0], forKey: box.value.keys[$0],
                    cost: values[$0].cost)
            })
    printMixed(seconds: seconds, cpu: cpu, hits: hits, operations: operations)
}

/// `CacheWorkloads.runMixed`, also returning the process's CPU seconds over the run (all threads): on a loaded
/// machine the wall time of one thread includes the time other processes ran, its CPU time does not.
func runMixedTimed(
    _ operations: [CacheWorkloads.Operation], threads: Int, read: @Sendable (Int) -> Bool,
    write: @Sendable (Int) -> Void
) -> (seconds: Double, cpu: Double, hits: Int) {
    let before = BenchClock.cpuSeconds
    let (seconds, hits) = CacheWorkloads.runMixed(operations, threads: threads, read: read, write: write)
    return (seconds, BenchClock.cpuSeconds - before, hits)
}

func printMixed(seconds: Double, cpu: Double, hits: Int, operations: [CacheWorkloads.Operation]) {
    let reads = operations.count { !$0.isWrite }
    print("seconds", seconds / Double(operations.count))
    print("cpu", cpu / Double(operations.count))
    print("reads", reads)
    print("hits", hits)
}

func printHit(_ result: (seconds: Double, misses: Int)) {
    guard result.misses == 0 else { fail("\(result.misses) lookups of present keys missed") }
    print("seconds", result.seconds)
}

/// NSCache is documented thread-safe but not Sendable in swift-corelibs-foundation.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
