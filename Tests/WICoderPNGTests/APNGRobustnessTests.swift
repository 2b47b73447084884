import Foundation
import Testing
import WICore
import WICoderPNG
import WITestSupport

/// Broken and cut APNGs: a typed error or an image, never a crash, never slow; and incremental decoding.
/// (PNGRobustnessTests flips bits in these files too.)
@Suite struct APNGRobustnessTests {
    static let files = ["png/apng-red-blue.png", "apng/combo-d2-b1.png", "apng/rgba16.png", "apng/combo-d0-b0-skip.png"]

    /// The offset of the `n`-th chunk of `type`.
    static func chunkOffset(_ data: [UInt8], _ type: String, _ n: Int = 0) -> Int {
        var offset = 8, seen = 0
        while offset + 8 <= data.count {
            let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: data[offset + 4..<offset + 8], as: UTF8.self) == type {
                if seen == n { return offset }
                seen += 1
            }
            offset += 12 + length
        }
        return -1
    }

    @Test func brokenAnimationChunksAreTypedErrors() {
        let original = [UInt8](Fixtures.data("apng/combo-d1-b1.png"))
        var badCRC = original
        badCRC[Self.chunkOffset(original, "fcTL", 1) + 12] ^= 1               // a byte of the second fcTL's data
        var badSequence = original
        let fdAT = Self.chunkOffset(original, "fdAT", 0)
        badSequence[fdAT + 11] = 9                                            // sequence number 2 -> 9
        // Fix the CRC so that only the sequence number is wrong.
        let length = badSequence[fdAT..<fdAT + 4].reduce(0) { $0 << 8 | Int($1) }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in badSequence[(fdAT + 4)..<(fdAT + 8 + length)] {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        crc = ~crc
        for i in 0..<4 { badSequence[fdAT + 8 + length + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(i))) }
        for (name, bytes, text) in [("crc", badCRC, "CRC error in fcTL"), ("sequence", badSequence, "out of sequence")] {
            let error = #expect(throws: ImageError.self, "\(name)") { try PNGCoder().decode(Data(bytes), options: .init()) }
            #expect(error?.code == .badImageData)
            #expect(error?.message.contains(text) == true, "\(error?.message ?? "")")
        }
    }

    @Test func aCutFileKeepsItsCompleteFrames() throws {
        let data = Fixtures.data("apng/combo-d2-b1.png")
        let complete = try PNGCoder().decode(data, options: .init())
        let cut = Self.chunkOffset([UInt8](data), "fdAT", 2) + 20   // inside the last frame's data
        let image = try PNGCoder().decode(data.prefix(cut), options: .init())
        #expect(image.frames.map(\.pixels) == Array(complete.frames.prefix(3).map(\.pixels)))
        #expect(image.flags == .incomplete)
        // Cut inside the first frame: no frame complete, so libpng reports the truncated default image.
        let early = #expect(throws: ImageError.self) { try PNGCoder().decode(data.prefix(100), options: .init()) }
        #expect(early?.code == .badImageData)
    }

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        let data = Fixtures.data(file)
        for truncated in DataMutations.truncated(data) {
            let clock = ContinuousClock()
            let started = clock.now
            do {
                let image = try PNGCoder().decode(truncated, options: .init())
                #expect(image.flags.contains(.incomplete), "cut at \(truncated.count)")
            } catch {
                #expect(error.code == .badImageData, "cut at \(truncated.count)")
            }
            #expect(clock.now - started < .seconds(1))
        }
    }

    @Test(arguments: ["png/apng-red-blue.png", "apng/combo-d0-b0-skip.png"])
    func incrementalDecodingEndsWithEveryFrame(file: String) throws {
        let report = try ProgressiveCoderVerifier.verify(PNGCoder(), data: Fixtures.data(file))
        #expect(report.runs == 5)
        #expect(report.partialImages > 0)
    }
}
