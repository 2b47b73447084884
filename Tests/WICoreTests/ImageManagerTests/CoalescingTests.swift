import Foundation
import Testing
import WICore
import WITestSupport

@Suite struct CoalescingTests {
    @Test func hundredIdenticalRequestsShareOneLoadDecodeAndTransform() async throws {
        let tint = MockTransformer(key: "Tint")
        let h = Harness(transformer: tint)
        let url = h.serve("a.png", width: 16, height: 16)
        h.loader.close()
        let tally = Tally()
        let tokens = (0..<100).map { _ in
            h.manager.loadImage(with: url) { result in tally.add((try? result.get()) != nil ? "ok" : "failed") }
        }
        #expect(await eventually { h.loader.waitingCount == 1 && h.manager.imageTaskWaiterCount == 100 })
        h.loader.open()
        #expect(await eventually { tally.total == 100 })
        #expect(tally["ok"] == 100)
        #expect(h.loader.loadCount == 1)
        #expect(h.coder.decodeCount == 1)
        #expect(tint.callCount == 1)
        #expect(
            h.manager.statistics.loads == 1 && h.manager.statistics.decodes == 1 && h.manager.statistics.transforms == 1
        )
        _ = tokens
    }

    @Test func cancellingNinetyNineLeavesTheLastOneSucceeding() async throws {
        let h = Harness()
        let url = h.serve("a.png")
        h.loader.close()
        let tally = Tally()
        let tokens = (0..<100).map { i in
            h.manager.loadImage(with: url) { result in
                switch result {
                case .success: tally.add("ok \(i)")
                case .failure(let error): tally.add(error.code == .cancelled ? "cancelled" : "failed")
                }
            }
        }
        #expect(await eventually { h.loader.waitingCount == 1 })
        for token in tokens.dropLast() { #expect(token.cancel()) }
        #expect(tally["cancelled"] == 99)  // delivered at once, synchronously
        h.loader.open()
        #expect(await eventually { tally.total == 100 })
        #expect(tally["ok 99"] == 1)
        #expect(h.loader.cancelCount == 0)
        #expect(h.loader.loadCount == 1)
        #expect(!tokens[99].cancel())  // already done
    }

    @Test func cancellingEveryCallerStopsTheLoader() async throws {
        let h = Harness()
        let url = h.serve("a.png")
        h.loader.close()
        let tally = Tally()
        let tokens = (0..<10).map { _ in h.manager.loadImage(with: url) { _ in tally.add("done") } }
        #expect(await eventually { h.loader.waitingCount == 1 })
        for token in tokens { token.cancel() }
        #expect(await eventually { h.loader.cancelCount == 1 })
        #expect(h.loader.waitingCount == 0)
        #expect(tally["done"] == 10)
        #expect(await eventually { !h.manager.isRunning })
        h.loader.open()
        #expect(h.loader.loadCount == 0)
    }

    @Test func cancellingTheCallingTaskCancelsOnlyThatCaller() async throws {
        let h = Harness()
        let url = h.serve("a.png")
        h.loader.close()
        let cancelled = Task { try await h.manager.loadImage(with: url) }
        let kept = Task { try await h.manager.loadImage(with: url) }
        #expect(await eventually { h.loader.waitingCount == 1 })
        cancelled.cancel()
        let error = await #expect(throws: ImageError.self) { try await cancelled.value }
        #expect(error?.code == .cancelled)
        h.loader.open()
        #expect(try await kept.value.image.size == PixelSize(width: 40, height: 20))
        #expect(!h.manager.isFailedURL(url))  // cancellation never blocks a URL
    }

    @Test func priorityIsTheHighestOfTheCallersAndChangesWhileQueued() async throws {
        let h = Harness()
        let (a, b, c) = (h.serve("a.png"), h.serve("b.png"), h.serve("c.png"))
        h.loader.close()
        let tally = Tally()
        _ = h.manager.loadImage(with: a, options: .lowPriority) { _ in tally.add("a") }
        let tokenB = h.manager.loadImage(with: b, options: .lowPriority) { _ in tally.add("b") }
        _ = h.manager.loadImage(with: c) { _ in tally.add("c") }
        #expect(await eventually { h.loader.waitingCount == 3 })
        tokenB.setPriority(.high)
        // A second, high-priority caller raises a's shared load above c's.
        _ = h.manager.loadImage(with: a, options: .highPriority) { _ in tally.add("a2") }
        #expect(
            await eventually { h.loader.waitingPriority(for: a) == .high && h.loader.waitingPriority(for: b) == .high })
        #expect(h.loader.waitingPriority(for: c) == .normal)
        h.loader.open()
        #expect(await eventually { tally.total == 4 })
        // a and b (both raised to high) go before c; between themselves they keep the order in which their
        // separately started tasks reached the loader, which is not specified.
        let started = h.loader.startedURLs
        #expect(started.count == 3)
        #expect(Set(started.prefix(2)) == [a.absoluteString, b.absoluteString])
        #expect(started.last == c.absoluteString)
    }

    @Test func exactlyOneCompletionPerCallUnderTenThousandRandomCancels() async throws {
        let h = Harness()
        let urls = (0..<20).map { h.serve("img\($0).png", width: 4, height: 4) }
        let tally = Tally()
        var random = SeededRandom(seed: 10_000)
        var tokens: [(Int, ImageManager.RequestToken)] = []
        for i in 0..<10_000 {
            let url = urls[Int.random(in: 0..<urls.count, using: &random)]
            let options: ImageOptions = Bool.random(using: &random) ? [.fromLoaderOnly] : []
            let token = h.manager.loadImage(with: url, options: options) { result in
                tally.add("call \(i)")
                if case .failure(let error) = result, error.code != .cancelled { tally.add("unexpected") }
            }
            if Bool.random(using: &random) { tokens.append((i, token)) }
            if i % 7 == 0, let (_, victim) = tokens.randomElement(using: &random) { victim.cancel() }
        }
        for (_, token) in tokens.shuffled(using: &random).prefix(2000) { token.cancel() }
        #expect(await eventually(60) { tally.total - tally["unexpected"] == 10_000 })
        await h.manager.waitUntilIdle()  // every load has ended: a second completion would have come before
        for i in stride(from: 0, to: 10_000, by: 1) where tally["call \(i)"] != 1 {
            Issue.record("call \(i) completed \(tally["call \(i)"]) times")
            break
        }
        #expect(tally["unexpected"] == 0)
        #expect(!h.manager.isRunning)
    }
}
