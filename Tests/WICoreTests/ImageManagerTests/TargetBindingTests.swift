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
        h.loader.open()
        let done = Results()
        tile.setImage(with: fast, manager: h.manager) { done.add($0) }
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
