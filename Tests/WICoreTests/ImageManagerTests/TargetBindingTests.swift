import Foundation
import Testing
import WICore
import WITestSupport

@MainActor
final class Tile: ImageTarget {
    var shown: [String] = []
    func display(_ image: Image?) { shown.append(image.map { "\($0.width)x\($0.height)" } ?? "nil") }
}

@Suite struct TargetBindingTests {
    var placeholder: Image { Image(pixels: try! PixelBuffer(width: 1, height: 1, format: .rgba8)) }

    @MainActor @Test func showsThePlaceholderThenTheResult() async throws {
        let h = Harness()
        let tile = Tile()
        let url = h.serve("a.png", width: 30, height: 10)
        var completions = 0
        tile.setImage(with: url, placeholder: placeholder, manager: h.manager) { result in
            completions += 1
            #expect((try? result.get())?.image.width == 30)
        }
        #expect(tile.shown == ["1x1"])
        #expect(await eventually { tile.shown.count == 2 })
        #expect(tile.shown == ["1x1", "30x10"])
        #expect(completions == 1)
    }

    @MainActor @Test func aNewLoadCancelsThePreviousOneForTheSameKey() async throws {
        let h = Harness()
        let tile = Tile()
        let slow = h.serve("slow.png", width: 11, height: 11)
        h.loader.close()
        let firstResults = Results()
        tile.setImage(with: slow, manager: h.manager) { firstResults.add($0) }
        #expect(await eventually { h.loader.waitingCount == 1 })
        let fast = h.serve("fast.png", width: 22, height: 22)
        let done = Results()
        tile.setImage(with: fast, manager: h.manager) { done.add($0) }
        h.loader.open()  // after the replacement: opened before it, the slow load could finish first (a race)
        #expect(await eventually { done.codes.count == 1 && firstResults.codes.count == 1 })
        #expect(tile.shown == ["nil", "nil", "22x22"])
        #expect(firstResults.codes == [2002])  // a replaced load calls back once, cancelled (SDWebImage does)
        await h.manager.waitUntilIdle()
        #expect(firstResults.codes == [2002])
    }

    @MainActor @Test func delayPlaceholderShowsItOnlyOnFailure() async throws {
        let h = Harness()
        let tile = Tile()
        tile.setImage(
            with: URL(string: "mock://host/missing.png")!, placeholder: placeholder, options: .delayPlaceholder,
            manager: h.manager)
        #expect(tile.shown.isEmpty)
        #expect(await eventually { tile.shown == ["1x1"] })
        var context = ImageContext()
        context[.operationKey] = "background"
        let done = Results()
        tile.setImage(
            with: h.serve("b.png", width: 5, height: 5), options: .avoidAutoSetImage, context: context,
            manager: h.manager
        ) { done.add($0) }
        #expect(await eventually { done.codes == [0] })
        #expect(tile.shown == ["1x1", "nil"])  // placeholder nil shown at start; the result not set automatically
    }
}

extension TargetBindingTests {
    /// SDWebImage's `testUIImageViewSetImageWithURLDiskSync` finds the disk image on the view before
    /// `sd_setImageWithURL` returns. Ours reads the disk on the calling thread but decodes and shows in the load's
    /// task, so the target shows only the placeholder when `setImage` returns, then the disk image, with no load
    /// (decision 0082).
    @MainActor @Test func queryDiskDataSyncShowsTheDiskImageAfterSetImageReturns() async throws {
        let h = Harness()
        let url = URL(string: "mock://host/disk.png")!
        h.disk.setData(h.coder.data(width: 12, height: 6), forKey: url.absoluteString)
        let tile = Tile()
        let done = Results()
        tile.setImage(with: url, options: .queryDiskDataSync, manager: h.manager) { done.add($0) }
        #expect(tile.shown == ["nil"])
        #expect(await eventually { done.codes == [0] })
        #expect(tile.shown == ["nil", "12x6"])
        #expect(h.loader.loadCount == 0)
    }

    /// SDWebImage's `testUIViewCancelWithDelayPlaceholderShouldCallbackOnceBeforeSecond`: a `.delayPlaceholder`
    /// load cancelled, then a new load for the same key. SD shows the cancelled load's placeholder once, before
    /// the second load's; ours never shows it (a cancelled load is no failure), so the target shows the second
    /// placeholder, then the image (decision 0082).
    @MainActor @Test func aCancelledDelayPlaceholderLoadNeverShowsItsPlaceholder() async throws {
        let h = Harness()
        let url = h.serve("slow.png", width: 8, height: 8)
        h.loader.close()
        let tile = Tile()
        var context = ImageContext()
        context[.operationKey] = "one slot"
        let first = Results()
        let token = tile.setImage(
            with: url, placeholder: placeholder, options: .delayPlaceholder, context: context, manager: h.manager
        ) { first.add($0) }
        token.cancel()
        let second = Results()
        let other = Image(pixels: try PixelBuffer(width: 2, height: 2, format: .rgba8))
        tile.setImage(with: url, placeholder: other, context: context, manager: h.manager) { second.add($0) }
        #expect(tile.shown == ["2x2"])
        h.loader.open()
        #expect(await eventually { first.codes == [2002] && second.codes == [0] })
        #expect(tile.shown == ["2x2", "8x8"])
    }
}

/// The results a target's completion got, as codes (0 for success), on the main actor.
@MainActor
final class Results {
    private(set) var codes: [Int] = []
    func add(_ result: Result<ImageResult, ImageError>) {
        switch result {
        case .success: codes.append(0)
        case .failure(let error): codes.append(error.code.rawValue)
        }
    }
}
