import Foundation
import Testing
import WICore
@_spi(Fuzzing) import WICoderPNG
import WITestSupport

/// Broken and cut APNGs: a typed error or an image, never a crash, never slow; and incremental decoding.
/// (PNGRobustnessTests flips bits in these files too.)
@Suite struct APNGRobustnessTests {
    static let files = [
        "png/apng-red-blue.png", "apng/combo-d2-b1.png", "apng/rgba16.png", "apng/combo-d0-b0-skip.png",
    ]

    /// The offset of the `n`-th chunk of `type`.
    static func chunkOffset(_ data: [UInt8], _ type: String, _ n: Int = 0) -> Int {
        var offset = 8
        var seen = 0
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

    /// The chunks of a PNG, as (type, data).
    static func chunks(_ bytes: [UInt8]) -> [(String, [UInt8])] {
        var offset = 8
        var result: [(String, [UInt8])] = []
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            result.append(
                (
                    String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self),
                    Array(bytes[offset + 8..<offset + 8 + length])
                ))
            offset += 12 + length
        }
        return result
    }

    /// A PNG made of `chunks`, every CRC computed.
    static func assemble(_ chunks: [(String, [UInt8])]) -> Data {
        var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        for (type, data) in chunks {
            let length = UInt32(data.count)
            out += (0..<4).map { UInt8(truncatingIfNeeded: length >> (24 - 8 * UInt32($0))) }
            let typed = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            crc = ~crc
            out += typed + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32($0))) }
        }
        return Data(out)
    }

    /// Structurally invalid animations show the default image as a still, as browsers do.
    @Test func invalidAnimationsShowTheDefaultImageAsAStill() throws {
        let original = Self.chunks([UInt8](Fixtures.data("apng/combo-d1-b1.png")))
        let animationChunks: Set<String> = ["acTL", "fcTL", "fdAT"]
        let still = try PNGCoder().decode(
            Self.assemble(original.filter { !animationChunks.contains($0.0) }), options: .init())
        #expect(still.frameCount == 1)
        let animated = try PNGCoder().decode(Self.assemble(original), options: .init())
        #expect(animated.frameCount == 4)
        let acTL = try #require(original.firstIndex { $0.0 == "acTL" })
        let firstIDAT = try #require(original.firstIndex { $0.0 == "IDAT" })
        let firstFcTL = try #require(original.firstIndex { $0.0 == "fcTL" })
        func withFrameCount(_ count: Int) -> [(String, [UInt8])] {
            var chunks = original
            chunks[acTL].1.replaceSubrange(
                0..<4, with: (0..<4).map { UInt8(truncatingIfNeeded: count >> (24 - 8 * $0)) })
            return chunks
        }
        var acTLAfterIDAT = original
        let moved = acTLAfterIDAT.remove(at: acTL)
        acTLAfterIDAT.insert(moved, at: firstIDAT)  // now just after the first IDAT
        var twoAcTL = original
        twoAcTL.insert(original[acTL], at: acTL)
        var fcTLBeforeAcTL = original
        let fcTL = fcTLBeforeAcTL.remove(at: firstFcTL)
        fcTLBeforeAcTL.insert(fcTL, at: acTL)
        var outOfOrder = original
        let fdAT = try #require(outOfOrder.firstIndex { $0.0 == "fdAT" })
        outOfOrder[fdAT].1[3] = 9  // sequence number 2 -> 9
        let cases: [(String, [(String, [UInt8])], String)] = [
            ("acTL after IDAT", acTLAfterIDAT, ""),
            ("two acTL", twoAcTL, "a second acTL"),
            ("fcTL before acTL", fcTLBeforeAcTL, "fcTL before acTL"),
            ("one frame fewer announced", withFrameCount(3), "acTL announces 3 frames, the file has 4"),
            ("one frame more announced", withFrameCount(5), "acTL announces 5 frames, the file has 4"),
            ("sequence out of order", outOfOrder, "out of sequence"),
        ]
        for (name, chunks, reason) in cases {
            let image = try PNGCoder().decode(Self.assemble(chunks), options: .init())
            #expect(image.frameCount == 1, "\(name)")
            #expect(image.pixels == still.pixels, "\(name)")
            if !reason.isEmpty {
                let error = try #require(APNGChunkReaderCheck.reason(Self.assemble(chunks)), "\(name)")
                #expect(error.contains(reason), "\(name): \(error)")
            }
        }
        // A broken CRC in an animation chunk: not an animation either.
        var badCRC = [UInt8](Self.assemble(original))
        badCRC[Self.chunkOffset(badCRC, "fcTL", 1) + 12] ^= 1
        let fromBadCRC = try PNGCoder().decode(Data(badCRC), options: .init())
        #expect(fromBadCRC.frameCount == 1 && fromBadCRC.pixels == still.pixels)
    }

    @Test func aCutFileKeepsItsCompleteFrames() throws {
        let data = Fixtures.data("apng/combo-d2-b1.png")
        let complete = try PNGCoder().decode(data, options: .init())
        let cut = Self.chunkOffset([UInt8](data), "fdAT", 2) + 20  // inside the last frame's data
        let image = try PNGCoder().decode(data.prefix(cut), options: .init())
        #expect(try image.frames.map(\.pixels) == Array(complete.frames.prefix(3).map(\.pixels)))
        #expect(image.flags == .incomplete)
        // Cut inside the first frame: no frame complete, so libpng reports the truncated default image.
        let early = #expect(throws: ImageError.self) { try PNGCoder().decode(data.prefix(100), options: .init()) }
        #expect(early?.code == .badImageData)
    }

    @Test(arguments: files)
    func truncatedAt32Offsets(file: String) {
        let data = Fixtures.data(file)
        for truncated in DataMutations.truncated(data) {
            let started = DataMutations.processCPUTime()
            do {
                let image = try PNGCoder().decode(truncated, options: .init())
                #expect(image.flags.contains(.incomplete), "cut at \(truncated.count)")
            } catch {
                #expect(error.code == .badImageData, "cut at \(truncated.count)")
            }
            #expect(DataMutations.processCPUTime() - started < .seconds(1))
        }
    }

    @Test(arguments: ["png/apng-red-blue.png", "apng/combo-d0-b0-skip.png"])
    func incrementalDecodingEndsWithEveryFrame(file: String) throws {
        let report = try ProgressiveCoderVerifier.verify(PNGCoder(), data: Fixtures.data(file))
        #expect(report.runs == 5)
        #expect(report.partialImages > 0)
    }
}

/// The reason the fuzzing entry point gives for an invalid animation.
enum APNGChunkReaderCheck {
    static func reason(_ data: Data) -> String? {
        do throws(ImageError) {
            _ = try APNGChunkReader.frameCount(in: data)
            return nil
        } catch {
            return error.message
        }
    }
}
