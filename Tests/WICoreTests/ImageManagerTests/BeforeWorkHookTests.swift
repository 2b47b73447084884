import Foundation
import Testing
import WICore
import WITestSupport

/// `ImageContext.Key.beforeWork`: awaited by the shared task once the bytes are in hand, before the decode and the
/// transform; its error fails the load before any CPU work.
@Suite struct BeforeWorkHookTests {
    @Test func theHookRunsAfterTheDownloadAndBeforeTheDecode() async throws {
        let tint = MockTransformer(key: "Tint")
        let h = Harness()
        let url = h.serve("a.png", width: 8, height: 4)
        h.loader.close()
        let seen = Tally()
        var context = ImageContext()
        context[.imageTransformer] = tint
        context[.beforeWork] = { [h] in
            seen.add("loads \(h.loader.loadCount) decodes \(h.coder.decodeCount) transforms \(tint.callCount)")
        }
        let load = Task { [context] in try await h.manager.loadImage(with: url, context: context) }
        #expect(await eventually { h.loader.waitingCount == 1 })
        #expect(seen.total == 0)  // waiting for its bytes: not yet
        h.loader.open()
        let result = try await load.value
        #expect(result.image.size == PixelSize(width: 8, height: 4))
        // Awaited before the decode and again before the transform (a service's hook holds its slot across both).
        #expect(seen["loads 1 decodes 0 transforms 0"] == 1)
        #expect(seen["loads 1 decodes 1 transforms 0"] == 1)
        #expect(seen.total == 2)
        // A memory hit does no CPU work: the hook is not awaited.
        await h.manager.waitUntilIdle()
        _ = try await h.manager.loadImage(with: url, context: context)
        #expect(seen.total == 2)
        await h.manager.shutdown()
    }

    /// A hook that refuses the work. (Written in the context's subscript, a closure literal that throws crashes
    /// Swift 6.3.1's IR generation; made here, as `RequestSlot` makes its hook, it does not.)
    static var refusing: @Sendable () async throws(ImageError) -> Void {
        { () async throws(ImageError) in throw ImageError(.cancelled, "no slot") }
    }

    @Test func aThrowingHookFailsTheLoadBeforeTheDecode() async throws {
        let h = Harness()
        let url = h.serve("b.png")
        var context = ImageContext()
        context[.beforeWork] = Self.refusing
        await #expect {
            try await h.manager.loadImage(with: url, context: context)
        } throws: { error in
            (error as? ImageError)?.code == .cancelled && (error as? ImageError)?.message == "no slot"
        }
        #expect(h.loader.loadCount == 1)
        #expect(h.coder.decodeCount == 0)
        await h.manager.shutdown()
    }
}
