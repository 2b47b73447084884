import Foundation
import Testing
import WICore
import WICoderWebP
import WITestSupport

/// Every fixture against Pillow's decode (exact: Debian's libwebp 1.2.4 and Pillow's 1.6.0 agree on all of them,
/// lossy included), animations frame by frame on the composited canvas.
@Suite struct WebPReferenceTests {
    @Test func theTableCoversTheFixtures() {
        #expect(WebPReference.all.map(\.file) == Fixtures.files(in: "webp", withExtension: "webp"))
        #expect(WebPReference.all.count == 21)
        #expect(WebPReference.all.filter { $0.frameCount > 1 }.count == 4)
    }

    @Test(arguments: WebPReference.all)
    func decodesToThePillowReference(reference: WebPReference) throws {
        // Pillow does not apply the EXIF orientation: compare the stored pixels.
        let image = try WebPCoder().decode(reference.data, options: .init(applyOrientation: false))
        #expect(image.format == .webp)
        #expect(image.frameCount == reference.frameCount)
        for (index, frame) in try image.frames.enumerated() {
            #expect(frame.pixels.size == reference.size)
            #expect(frame.pixels.format == .rgba8)
            #expect(SHA256.hex(frame.pixels.packedBytes()) == reference.frameSHA256[index], "frame \(index)")
        }
        if let loopCount = reference.loopCount {
            #expect(image.loopCount == loopCount)
            #expect(
                image.durations
                    == reference.durationsMilliseconds.map(ImageFrame.browserDuration(milliseconds:)))
        } else {
            #expect(image.loopCount == 0)
            #expect(try image.frames[0].duration == 0)
        }
    }
}
