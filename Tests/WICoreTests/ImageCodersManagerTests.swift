import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct ImageCodersManagerTests {
    @Test func lastAddedCoderWins() throws {
        let first = MockCoder(magic: "MOCK", marker: 1)
        let second = MockCoder(magic: "MOCK", marker: 2)
        let manager = ImageCodersManager(coders: [first])
        manager.addCoder(second)
        let image = try manager.decode(Data("MOCK data".utf8), options: .init())
        #expect(image.pixels.color(x: 0, y: 0).red == 2)
        #expect(first.decodeCount == 0)
        #expect(second.decodeCount == 1)
        #expect(manager.coders.count == 2)
        #expect((manager.coders[0] as? MockCoder) === second)
    }

    @Test func onlyCodersThatAcceptTheDataAreAsked() throws {
        let png = MockCoder(magic: "PNGX", marker: 1)
        let gif = MockCoder(magic: "GIFX", marker: 2)
        let manager = ImageCodersManager(coders: [png, gif])
        #expect(try manager.decode(Data("PNGX".utf8), options: .init()).pixels.color(x: 0, y: 0).red == 1)
        #expect(gif.decodeCount == 0)
        let error = #expect(throws: ImageError.self) { try manager.decode(Data("JPEG".utf8), options: .init()) }
        #expect(error?.code == .unsupportedFormat)  // no coder for the bytes: 1004, not "bad data"
        let empty = #expect(throws: ImageError.self) { try manager.decode(Data(), options: .init()) }
        #expect(empty?.code == .badImageData)
    }

    @Test func declineFallsThroughToTheNextCoder() throws {
        let fallback = MockCoder(magic: "MOCK", marker: 1)
        let declining = MockCoder(magic: "MOCK", marker: 2, failure: ImageError(.unsupportedFormat, "not this variant"))
        let manager = ImageCodersManager(coders: [fallback, declining])
        #expect(try manager.decode(Data("MOCK".utf8), options: .init()).pixels.color(x: 0, y: 0).red == 1)
        #expect(declining.decodeCount == 1)
        #expect(fallback.decodeCount == 1)
    }

    @Test func aRealFailureIsFinal() {
        let fallback = MockCoder(magic: "MOCK", marker: 1)
        let broken = MockCoder(magic: "MOCK", marker: 2, failure: ImageError(.badImageData, "corrupt"))
        let manager = ImageCodersManager(coders: [fallback, broken])
        let error = #expect(throws: ImageError.self) { try manager.decode(Data("MOCK".utf8), options: .init()) }
        #expect(error?.message == "corrupt")
        #expect(fallback.decodeCount == 0)
    }

    @Test func encodingPicksACoderByFormat() throws {
        let a = MockCoder(magic: "AAAA", marker: 1)
        let b = MockCoder(magic: "BBBB", marker: 2)
        let manager = ImageCodersManager(coders: [a, b])
        let image = try a.decode(Data("AAAA".utf8), options: .init())
        #expect(try manager.encode(image, as: a.decodingFormats[0], options: .init()) == a.data(width: 1, height: 1))
        #expect(b.encodeCount == 0)
        #expect(manager.canEncode(to: b.decodingFormats[0]))
        #expect(!manager.canEncode(to: .png))
        let error = #expect(throws: ImageError.self) { try manager.encode(image, as: .png, options: .init()) }
        #expect(error?.code == .unsupportedFormat)
        #expect(manager.decodingFormats.map(\.identifier) == ["mock-2", "mock-1"])
    }

    @Test func removeCoders() throws {
        let a = MockCoder(magic: "MOCK", marker: 1)
        let b = MockCoder(magic: "MOCK", marker: 2)
        let manager = ImageCodersManager(coders: [a, b])
        manager.removeCoders { ($0 as? MockCoder)?.marker == 2 }
        #expect(try manager.decode(Data("MOCK".utf8), options: .init()).pixels.color(x: 0, y: 0).red == 1)
    }

    @Test func concurrentRegistrationAndDecoding() async throws {
        let manager = ImageCodersManager(coders: [MockCoder(magic: "MOCK", marker: 0)])
        let base = MockCoder(magic: "BASE", marker: 9)
        manager.addCoder(base)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for i in 0..<200 {
                        if task % 4 == 0 {
                            manager.addCoder(MockCoder(magic: "ZZ\(task)-\(i)", marker: 1))
                        } else {
                            let image = try manager.decode(Data("BASE".utf8), options: .init())
                            #expect(image.pixels.color(x: 0, y: 0).red == 9)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(manager.coders.count == 2 + 4 * 200)
        #expect(base.decodeCount == 12 * 200)
    }

    @Test func incrementalDecoderFromTheAcceptingCoder() throws {
        let manager = ImageCodersManager(coders: [MockCoder(magic: "MOCK", marker: 3)])
        #expect(manager.makeIncrementalDecoder(header: Data("NOPE".utf8), options: .init()) == nil)
        let decoder = try #require(manager.makeIncrementalDecoder(header: Data("MOCK".utf8), options: .init()))
        #expect(try decoder.append(Data("MOCK".utf8)) == false)
        #expect(try decoder.finish().pixels.color(x: 0, y: 0).red == 3)
    }
}
