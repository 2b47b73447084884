// wi-disk-stress: a helper process for WICacheDiskTests (not a product). It hammers one cache directory so the
// tests can run several writers at once, or kill one with SIGKILL at a random instant.
//
//   wi-disk-stress write DIR SEED [ITERATIONS]   stores, reads back, removes and trims entries k0..k39 with
//                                                self-checking payloads; forever when ITERATIONS is absent.
//                                                Exit 0 when done, 3 when a read saw torn or foreign bytes.
//   wi-disk-stress verify DIR                     checks every entry file in DIR and every key through the cache;
//                                                prints "files=N keys=N bad=N" and exits 0 when bad is 0.
//
// A payload is a 4-byte little-endian body length, an 8-byte FNV-1a hash of the body, then the body, so any
// partial or mixed file is detected.
import Foundation
import WICacheDisk

let keyCount = 40

func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash
}

func payload(size: Int, using generator: inout some RandomNumberGenerator) -> Data {
    var words = [UInt64](repeating: 0, count: size / 8 + 1)
    for index in words.indices { words[index] = generator.next() }
    let body = words.withUnsafeBytes { Array($0.prefix(size)) }
    var data = Data()
    withUnsafeBytes(of: UInt32(size).littleEndian) { data.append(contentsOf: $0) }
    withUnsafeBytes(of: fnv1a(body).littleEndian) { data.append(contentsOf: $0) }
    data.append(contentsOf: body)
    return data
}

func isWhole(_ data: Data) -> Bool {
    guard data.count >= 12 else { return false }
    let bytes = [UInt8](data)
    let length = bytes[0..<4].enumerated().reduce(0) { $0 | Int($1.element) << ($1.offset * 8) }
    let hash = bytes[4..<12].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64($1.offset * 8) }
    return length == bytes.count - 12 && hash == fnv1a(bytes[12...])
}

struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func openCache(_ directory: String) throws -> DiskCache {
    var configuration = DiskCache.Configuration()
    configuration.sizeLimit = 400_000
    configuration.sizeAccounting = .logical
    configuration.trimInterval = nil
    return try DiskCache(directory: directory, configuration: configuration)
}

func write(directory: String, seed: UInt64, iterations: Int?) throws -> Int32 {
    let cache = try openCache(directory)
    var generator = SplitMix(state: seed)
    var step = 0
    while iterations.map({ step < $0 }) ?? true {
        step += 1
        let key = "k\(Int.random(in: 0..<keyCount, using: &generator))"
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<55:
            try cache.store(
                payload(size: Int.random(in: 1...40_000, using: &generator), using: &generator), forKey: key)
        case 55..<90:
            if let data = try cache.readData(forKey: key), !isWhole(data) {
                FileHandle.standardError.write(Data("torn read of \(key): \(data.count) bytes\n".utf8))
                return 3
            }
        case 90..<97:
            try cache.remove(forKey: key)
        default:
            try cache.removeExpired()
        }
    }
    return 0
}

func verify(directory: String) throws -> Int32 {
    let cache = try openCache(directory)
    var files = 0
    var keys = 0
    var bad = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasPrefix(".") {
        files += 1
        if !isWhole(FileManager.default.contents(atPath: directory + "/" + name) ?? Data()) { bad += 1 }
    }
    for index in 0..<keyCount {
        guard let data = try cache.readData(forKey: "k\(index)") else { continue }
        keys += 1
        if !isWhole(data) { bad += 1 }
    }
    print("files=\(files) keys=\(keys) bad=\(bad) count=\(cache.totalCount)")
    return bad == 0 ? 0 : 1
}

let arguments = CommandLine.arguments
do {
    switch (arguments.count > 1 ? arguments[1] : "", arguments.count) {
    case ("write", 4...5):
        exit(
            try write(
                directory: arguments[2], seed: UInt64(arguments[3]) ?? 1,
                iterations: arguments.count == 5 ? Int(arguments[4]) : nil))
    case ("verify", 3):
        exit(try verify(directory: arguments[2]))
    default:
        FileHandle.standardError.write(Data("usage: wi-disk-stress write DIR SEED [ITERATIONS] | verify DIR\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("wi-disk-stress: \(error)\n".utf8))
    exit(4)
}
