import Foundation
import Synchronization
import Testing
import WICore
import WITestSupport

/// Cancels from several tasks at once: every load completes exactly once, at most one `cancel()` per load wins,
/// a load whose cancel won ends `.cancelled`, and a load no cancel won ends with its image.
@Suite struct CancellationStormTests {
    /// What each load ended with, and how many `cancel()` calls on it returned true.
    final class Ledger: Sendable {
        enum Outcome: Equatable, Sendable {
            case image, cancelled
            case other(ImageError.Code)
        }
        private let state = Mutex<(outcomes: [Int: [Outcome]], wins: [Int: Int])>(([:], [:]))

        func complete(_ call: Int, _ result: Result<ImageResult, ImageError>) {
            let outcome: Outcome =
                switch result {
                case .success: .image
                case .failure(let error): error.code == .cancelled ? .cancelled : .other(error.code)
                }
            state.withLock { $0.outcomes[call, default: []].append(outcome) }
        }

        func won(_ call: Int) { state.withLock { $0.wins[call, default: 0] += 1 } }
        var completed: Int { state.withLock { $0.outcomes.values.reduce(0) { $0 + $1.count } } }
        func outcomes(_ call: Int) -> [Outcome] { state.withLock { $0.outcomes[call] ?? [] } }
        func wins(_ call: Int) -> Int { state.withLock { $0.wins[call] ?? 0 } }
    }

    /// 10,000 loads in `make test`; `make soak` sets WI_SOAK_STORM_LOADS for a longer run.
    @Test func tenThousandLoadsCancelledFromFourTasksAtOnce() async throws {
        let loads = Soak.count("WI_SOAK_STORM_LOADS", default: 10_000)
        // Decodes wait for the latch until the first worker is halfway through its cancels, so that the storm hits
        // loads before they finish (without it, under the sanitizers every load could end before the first cancel)
        // and after.
        let decodes = TestLatch()
        let h = Harness(decodeGate: decodes)
        let urls = (0..<20).map { h.serve("img\($0).png", width: 4, height: 4) }
        let ledger = Ledger()
        var random = SeededRandom(seed: 4)
        let tokens = (0..<loads).map { call in
            h.manager.loadImage(with: urls[Int.random(in: 0..<urls.count, using: &random)]) { result in
                ledger.complete(call, result)
            }
        }
        // Four tasks each cancel 2,500 loads picked at random (overlapping: some loads get several cancels at once),
        // yielding now and then so that cancels land at every stage of the loads.
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                var picks = SeededRandom(seed: UInt64(worker))
                let victims = (0..<loads / 4).map { _ in Int.random(in: 0..<loads, using: &picks) }
                group.addTask {
                    for (n, call) in victims.enumerated() {
                        if worker == 0 && n == victims.count / 2 { decodes.open() }
                        if tokens[call].cancel() { ledger.won(call) }
                        if n % 25 == 0 { await Task.yield() }
                    }
                }
            }
        }
        #expect(await eventually(60 + Double(loads) / 1000) { ledger.completed >= loads })
        await h.manager.waitUntilIdle()  // every load has ended: a second completion would have come before
        var cancelled = 0
        for call in 0..<loads {
            let (outcomes, wins) = (ledger.outcomes(call), ledger.wins(call))
            let expected: [Ledger.Outcome] = wins == 1 ? [.cancelled] : [.image]
            if wins > 1 || outcomes != expected {
                Issue.record("load \(call): \(wins) winning cancels, completions \(outcomes)")
                break
            }
            cancelled += wins
        }
        #expect(cancelled > 0 && cancelled < loads)  // cancels won before the latch opened; not every load was picked
        #expect(await eventually { !h.manager.isRunning })
    }
}
