import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import WICore
import WITestSupport

/// WICore's gzip reader (what `.svgz` sniffing and decoding use), against members Python's gzip module wrote.
@Suite struct GzipTests {
    /// `gzip.compress(b"hello, hello, hello, gzip!\n", 9, mtime=0)`: one fixed-Huffman block.
    static let fixed: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0xd7, 0x51, 0xc8,
        0x40, 0xa1, 0xd2, 0xab, 0x32, 0x0b, 0x14, 0xb9, 0x00, 0x60, 0x5b, 0x5f, 0x76, 0x1b, 0x00, 0x00, 0x00,
    ]
    /// The 625-byte SVG `dynamicText` makes, compressed by Python's gzip at level 9: one dynamic-Huffman block.
    static let dynamic: [UInt8] = [
        0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x5d, 0x92, 0xcb, 0x4e, 0xc3, 0x30, 0x10, 0x45,
        0xf7, 0x7c, 0xc5, 0xdd, 0x79, 0xd7, 0x78, 0xc6, 0x79, 0xd8, 0x55, 0xd3, 0x05, 0x6b, 0xf3, 0x11, 0x48, 0xa0,
        0x16, 0x09, 0x68, 0x45, 0xa3, 0xba, 0x9f, 0xcf, 0x9d, 0x64, 0xc3, 0x20, 0x45, 0xb6, 0x74, 0xe3, 0x19, 0x9f,
        0x33, 0xc9, 0xe1, 0x76, 0x3f, 0xe1, 0xf1, 0xf5, 0xf9, 0x7d, 0x9b, 0xc3, 0x79, 0x59, 0xae, 0xfb, 0xae, 0x6b,
        0xad, 0xed, 0x5a, 0xda, 0x5d, 0x7e, 0x4e, 0x9d, 0xc6, 0x18, 0x3b, 0x9e, 0x08, 0xb8, 0x7f, 0xbc, 0xb7, 0xe7,
        0xcb, 0x63, 0x0e, 0x11, 0x11, 0xda, 0xf3, 0x09, 0xc7, 0xc3, 0xf5, 0x75, 0x39, 0xe3, 0x6d, 0x0e, 0x2f, 0x16,
        0x56, 0x2e, 0xa1, 0xfb, 0x13, 0x0a, 0x12, 0xea, 0x04, 0x71, 0xa1, 0x62, 0x44, 0x15, 0xd6, 0xbb, 0x34, 0xa1,
        0xa0, 0x2a, 0x0b, 0x5c, 0xda, 0x43, 0x14, 0xb5, 0x47, 0xef, 0xd2, 0x01, 0x32, 0xb0, 0x85, 0x60, 0x70, 0xf1,
        0x08, 0xc9, 0x8c, 0x33, 0x46, 0x17, 0x4f, 0x60, 0xdb, 0x2a, 0x98, 0x5c, 0x9a, 0x8d, 0x37, 0x23, 0xbb, 0xb0,
        0x18, 0x2f, 0x7b, 0x17, 0x6f, 0x11, 0x8d, 0x58, 0x15, 0xf2, 0xcf, 0x4e, 0x8c, 0x99, 0x30, 0xde, 0x8f, 0xc4,
        0x06, 0xbd, 0x6e, 0xfe, 0x45, 0xda, 0xb8, 0x0b, 0xc4, 0x5b, 0x72, 0x18, 0x46, 0xce, 0x02, 0xef, 0xc9, 0xd3,
        0x86, 0xce, 0xf3, 0x5e, 0x54, 0x46, 0x83, 0xe7, 0x2a, 0xde, 0x54, 0x26, 0xe3, 0x57, 0x5e, 0xe3, 0x5d, 0x6d,
        0x24, 0xa8, 0x36, 0x1e, 0x1f, 0x17, 0xe3, 0x37, 0x2a, 0xef, 0xab, 0x71, 0x15, 0xe0, 0xa6, 0x5e, 0x98, 0x30,
        0x26, 0x90, 0x48, 0xe5, 0x73, 0xdd, 0x26, 0xcf, 0x02, 0x6f, 0xac, 0x69, 0x9b, 0x3d, 0x3f, 0xc1, 0x6a, 0x6c,
        0x3f, 0xd2, 0xf1, 0xe9, 0x17, 0x21, 0x1e, 0x3a, 0x00, 0x71, 0x02, 0x00, 0x00,
    ]
    static var dynamicText: [UInt8] {
        var text = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>"
        for i in 0..<24 { text += "<path d='M\(i) \(i * 3 % 24) L\(i * 7 % 24) \(i)'/>" }
        return Array((text + "</svg>\n").utf8)
    }

    static func inflate(_ bytes: [UInt8], limit: Int = 1 << 20) throws(Gzip.Failure) -> [UInt8] {
        try bytes.withUnsafeBufferPointer { (b) throws(Gzip.Failure) in try Gzip.inflate(b, limit: limit) }
    }

    @Test func inflatesFixedAndDynamicBlocks() throws {
        #expect(try Self.inflate(Self.fixed) == Array("hello, hello, hello, gzip!\n".utf8))
        #expect(Self.dynamicText.count == 625)
        #expect(try Self.inflate(Self.dynamic) == Self.dynamicText)
        #expect(ImageFormat.detect(Data(Self.dynamic)) == .svg)
        #expect(ImageFormat.detect(Data(Self.fixed)) == .undefined)  // gzip, but not an SVG inside
    }

    @Test func theLimitStopsInflating() throws {
        #expect(try Self.inflate(Self.dynamic, limit: 625) == Self.dynamicText)
        #expect(throws: Gzip.Failure.exceedsLimit(624)) { try Self.inflate(Self.dynamic, limit: 624) }
        let prefix = Self.dynamic.withUnsafeBufferPointer { Gzip.prefix($0, count: 40) }
        #expect(prefix == Array(Self.dynamicText[0..<40]))
    }

    @Test func brokenMembersAreMalformed() {
        var crc = Self.fixed
        crc[crc.count - 8] ^= 1
        #expect(throws: Gzip.Failure.malformed("CRC-32 mismatch")) { try Self.inflate(crc) }
        var size = Self.fixed
        size[size.count - 4] ^= 1
        #expect(throws: Gzip.Failure.malformed("length mismatch")) { try Self.inflate(size) }
        #expect(throws: Gzip.Failure.malformed("truncated deflate stream")) {
            try Self.inflate(Array(Self.fixed.dropLast(9)))
        }
        #expect(throws: Gzip.Failure.malformed("not a gzip member")) { try Self.inflate([0x1f, 0x8b, 8]) }
        var blockType = Self.fixed
        blockType[10] |= 0b110  // BTYPE 3
        #expect(throws: Gzip.Failure.malformed("invalid deflate block type")) { try Self.inflate(blockType) }
        // Every truncation and every single-bit flip: an answer or a typed failure (the call is typed; no trap).
        for cut in 0..<Self.dynamic.count { _ = try? Self.inflate(Array(Self.dynamic[0..<cut])) }
        for bit in 0..<(Self.dynamic.count * 8) {
            var copy = Self.dynamic
            copy[bit / 8] ^= 1 << UInt8(bit % 8)
            _ = try? Self.inflate(copy)
        }
    }

    /// A cancelled pool job stops inflating within 64 KiB of output: 16 MiB of zeros (the bombs fixture), its job
    /// cancelled once it runs and before it inflates, ends `.cancelled` (uncancelled, it would inflate it all).
    @Test func aCancelledJobStopsInflating() async throws {
        let bomb = [UInt8](Fixtures.data("bombs/zeros-16MiB.gz"))
        let pool = WorkerPool(name: "gzip-test", threads: 1)
        let started = Atomic<Bool>(false)
        let proceed = Atomic<Bool>(false)
        let job = Task {
            await pool.cancellableResult { () throws(ImageError) -> Int in
                started.store(true, ordering: .sequentiallyConsistent)
                while !proceed.load(ordering: .sequentiallyConsistent) { sched_yield() }
                do throws(Gzip.Failure) {
                    return try Self.inflate(bomb, limit: 16 << 20).count
                } catch {
                    throw ImageError(error == .cancelled ? .cancelled : .badImageData, "\(error)")
                }
            }
        }
        while !started.load(ordering: .sequentiallyConsistent) { await Task.yield() }
        job.cancel()
        proceed.store(true, ordering: .sequentiallyConsistent)
        let result = await job.value
        #expect(throws: ImageError.self) { try result.get() }
        #expect((try? result.get()) == nil)
        if case .failure(let error) = result { #expect(error.code == .cancelled) }
        pool.shutdown()
    }
}
