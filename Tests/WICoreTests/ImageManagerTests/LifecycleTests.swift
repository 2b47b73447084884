import Foundation
import Synchronization
import Testing
import WICore
import WITestSupport

/// Registration before return, cancelAll, shutdown, and the target binding's cancellation.
@Suite struct LifecycleTests {
    @Test func aCallbackLoadIsRunningAndCancellableOnceTheCallReturns() async throws {
        let h = Harness()
        let url = h.serve("held.png")
        h.loader.close()
        let codes = Codes()
        for _ in 0..<20 {
            h.manager.loadImage(with: url) { codes.add($0) }
            #expect(h.manager.isRunning)
        }
        h.manager.cancelAll()
        #expect(await eventually { codes.all.count == 20 })
        #expect(codes.all == Array(repeating: 2002, count: 20))
        await h.manager.waitUntilIdle()
        #expect(!h.manager.isRunning)
        h.loader.open()
        #expect(codes.all.count == 20)                          // exactly once each
    }

    @Test func shutdownCancelsLoadsFinishesStoresAndRefusesNewWork() async throws {
        let h = Harness()
        let stored = h.serve("stored.png", width: 3, height: 3)
        _ = try await h.manager.loadImage(with: stored)         // its store runs in the background
        let held = h.serve("held.png")
        h.loader.close()
        let codes = Codes()
        h.manager.loadImage(with: held) { codes.add($0) }
        let asyncLoad = Task { () -> Int in
            do throws(ImageError) {
                _ = try await h.manager.loadImage(with: held)
                return 0
            } catch {
                return error.code.rawValue
            }
        }
        #expect(await eventually { h.loader.waitingCount == 1 && h.manager.imageTaskWaiterCount == 2 })
        await h.manager.shutdown()
        #expect(codes.all == [2002])
        #expect(await asyncLoad.value == 2002)
        #expect(h.disk.keys.contains(stored.absoluteString))    // the background store finished first
        #expect(!h.manager.isRunning)
        let refused = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: stored) }
        #expect(refused?.code == .shutDown)
        h.manager.loadImage(with: stored) { codes.add($0) }
        #expect(codes.all == [2002, 1010])                      // at once, before the call returns
        await h.manager.shutdown()                              // idempotent
    }

    @MainActor @Test func cancellingATargetLoadCallsBackWith2002AndShowsNoPlaceholder() async throws {
        let h = Harness()
        let tile = Tile()
        let url = h.serve("t.png")
        h.loader.close()
        let results = Results()
        let placeholder = Image(pixels: try PixelBuffer(width: 1, height: 1, format: .rgba8))
        tile.setImage(with: url, placeholder: placeholder, options: .delayPlaceholder, manager: h.manager) { results.add($0) }
        tile.cancelImageLoad()
        #expect(await eventually { results.codes == [2002] })
        #expect(tile.shown.isEmpty)                              // cancelled is not failed
        h.loader.open()
        await h.manager.waitUntilIdle()
        #expect(results.codes == [2002])
    }

    @MainActor @Test func theOptionsProcessorSeesTheTargetsOperationKey() async throws {
        let seen = Mutex<[String?]>([])
        let processor = BlockOptionsProcessor { _, options, context in
            seen.withLock { $0.append(context[.operationKey]) }
            return (options, context)
        }
        let h = Harness(optionsProcessor: processor)
        let tile = Tile()
        let results = Results()
        tile.setImage(with: h.serve("k.png"), manager: h.manager) { results.add($0) }
        var context = ImageContext()
        context[.operationKey] = "avatar"
        tile.setImage(with: h.serve("k2.png"), context: context, manager: h.manager) { results.add($0) }
        #expect(await eventually { results.codes.count == 2 })
        #expect(seen.withLock { $0 } == ["Tile", "avatar"])
    }
}

/// Completion codes (0 for success) from any thread.
final class Codes: Sendable {
    private let codes = Mutex<[Int]>([])
    func add(_ result: Result<ImageResult, ImageError>) {
        codes.withLock {
            switch result {
            case .success: $0.append(0)
            case .failure(let error): $0.append(error.code.rawValue)
            }
        }
    }
    var all: [Int] { codes.withLock { $0 } }
}
