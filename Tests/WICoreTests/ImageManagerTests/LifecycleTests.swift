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
        #expect(codes.all.count == 20)  // exactly once each
    }

    /// The async form runs in the caller's task: `cancelAll()` ends each waiting caller through the image task
    /// registry (2002 once each, a `.cancelled` event each), the shared load stops with its last caller, and the
    /// manager loads again afterwards.
    @Test func cancelAllEndsWaitingAsyncCallersWith2002Once() async throws {
        let h = Harness()
        let url = h.serve("held-async.png")
        h.loader.close()
        let events = h.manager.events()
        let manager = h.manager
        let callers = (0..<20).map { _ in
            Task { () -> Int in
                do throws(ImageError) {
                    _ = try await manager.loadImage(with: url)
                    return 0
                } catch {
                    return error.code.rawValue
                }
            }
        }
        #expect(await eventually { h.manager.imageTaskWaiterCount == 20 && h.loader.waitingCount == 1 })
        #expect(h.manager.isRunning)
        h.manager.cancelAll()
        var codes: [Int] = []
        for caller in callers { codes.append(await caller.value) }
        #expect(codes == Array(repeating: 2002, count: 20))
        var kinds: [String: Int] = [:]
        for await event in events {
            kinds["\(event.kind)", default: 0] += 1
            if kinds.values.reduce(0, +) == 40 { break }
        }
        #expect(kinds == ["started": 20, "cancelled": 20])
        await h.manager.waitUntilIdle()
        #expect(!h.manager.isRunning)
        #expect(h.manager.imageTaskWaiterCount == 0)
        #expect(h.loader.waitingCount == 0)  // the shared load was cancelled with its last caller
        h.loader.open()
        #expect(try await h.manager.loadImage(with: url).cacheType == .none)
        #expect(h.manager.statistics.loads == 2)
        await h.manager.shutdown()
    }

    /// `cancelAll()` calls racing 2,000 async loads (joining, waiting, done): each load ends exactly once (a second
    /// resume of its continuation traps), with its image or 2002, and nothing is left running. (Events are not
    /// counted here: the stream keeps only the newest 1,000, and a consumer on the loaded machine falls behind.)
    @Test func cancelAllRacingAsyncLoadsEndsEachExactlyOnce() async throws {
        let h = Harness()
        let urls = (0..<10).map { h.serve("race\($0).png", width: 4, height: 4) }
        let manager = h.manager
        let loads = 2_000
        let codes = await withTaskGroup(of: Int?.self) { group -> [Int: Int] in
            for call in 0..<loads {
                group.addTask {
                    do throws(ImageError) {
                        _ = try await manager.loadImage(with: urls[call % urls.count])
                        return 0
                    } catch {
                        return error.code.rawValue
                    }
                }
            }
            group.addTask {
                for _ in 0..<400 {
                    manager.cancelAll()
                    await Task.yield()
                }
                return nil
            }
            var codes: [Int: Int] = [:]
            for await code in group { if let code { codes[code, default: 0] += 1 } }
            return codes
        }
        #expect(codes.values.reduce(0, +) == loads)
        #expect(Set(codes.keys).isSubset(of: [0, 2002]))
        await h.manager.waitUntilIdle()
        #expect(h.manager.imageTaskWaiterCount == 0)
        await h.manager.shutdown()
    }

    @Test func shutdownCancelsLoadsFinishesStoresAndRefusesNewWork() async throws {
        let h = Harness()
        let stored = h.serve("stored.png", width: 3, height: 3)
        _ = try await h.manager.loadImage(with: stored)  // its store runs in the background
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
        #expect(h.disk.keys.contains(stored.absoluteString))  // the background store finished first
        #expect(!h.manager.isRunning)
        let refused = await #expect(throws: ImageError.self) { try await h.manager.loadImage(with: stored) }
        #expect(refused?.code == .shutDown)
        h.manager.loadImage(with: stored) { codes.add($0) }
        #expect(codes.all == [2002, 1010])  // at once, before the call returns
        await h.manager.shutdown()  // idempotent
    }

    @MainActor @Test func cancellingATargetLoadCallsBackWith2002AndShowsNoPlaceholder() async throws {
        let h = Harness()
        let tile = Tile()
        let url = h.serve("t.png")
        h.loader.close()
        let results = Results()
        let placeholder = Image(pixels: try PixelBuffer(width: 1, height: 1, format: .rgba8))
        tile.setImage(with: url, placeholder: placeholder, options: .delayPlaceholder, manager: h.manager) {
            results.add($0)
        }
        tile.cancelImageLoad()
        #expect(await eventually { results.codes == [2002] })
        #expect(tile.shown.isEmpty)  // cancelled is not failed
        h.loader.open()
        await h.manager.waitUntilIdle()
        #expect(results.codes == [2002])
    }

    @MainActor @Test func theOptionsProcessorSeesTheTargetsOperationKey() async throws {
        let seen = Mutex<[String?]>([])
        let processor = ImageManager.BlockOptionsProcessor { _, options, context in
            seen.withLock { $0.append(context[.operationKey]) }
            return (options, context)
        }
        let h = Harness(optionsProcessor: processor)
        let tile = Tile()
        let results = Results()
        tile.setImage(with: h.serve("k.png"), manager: h.manager) { results.add($0) }
        // Each setImage runs in a task of its own: the second starts once the first was seen, so the order is fixed.
        #expect(await eventually { seen.withLock { $0.count } == 1 })
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
