import Synchronization
import Testing
import WICore

/// The work shared by every caller of a key sees the highest priority among them, through joins, leaves and
/// priority changes, and a join costs the same however many callers share the work.
@Suite struct WorkRegistryTests {
    typealias Registry = WorkRegistry<String, Int, Never>

    /// Work that records what it is told and waits until released, and the callers' tickets in join order.
    final class GatedWork: Sendable {
        private let state = Mutex<
            (
                context: Registry.Context?, started: Bool, changes: [ImageLoading.Priority],
                released: Bool, tickets: [Registry.Ticket]
            )
        >((nil, false, [], false, []))

        var changes: [ImageLoading.Priority] { state.withLock { $0.changes } }
        var tickets: [Registry.Ticket] { state.withLock { $0.tickets } }
        func keep(_ ticket: Registry.Ticket) { state.withLock { $0.tickets.append(ticket) } }
        var priority: ImageLoading.Priority? { state.withLock { $0.context?.priority } }
        var hasStarted: Bool { state.withLock { $0.started } }
        func release() { state.withLock { $0.released = true } }

        func run(_ context: Registry.Context) async -> Result<Int, ImageError> {
            context.onPriorityChange { [self] priority in state.withLock { $0.changes.append(priority) } }
            state.withLock {
                $0.context = context
                $0.started = true
            }
            while !state.withLock({ $0.released }) { try? await Task.sleep(for: .milliseconds(1)) }
            // Let go of the context: it holds the registry's entry, whose priority handler holds this object.
            state.withLock { $0.context = nil }
            return .success(42)
        }
    }

    /// A caller of "k" in a task of its own; its ticket is kept for priority changes.
    private func join(
        _ registry: Registry, _ work: GatedWork,
        _ priority: ImageLoading.Priority
    ) -> Task<Result<Int, ImageError>, Never> {
        Task { await registry.run(key: "k", priority: priority, ticket: work.keep, work: work.run) }
    }

    @Test func theWorkSeesTheHighestPriorityThroughJoinsLeavesAndChanges() async throws {
        let registry = Registry()
        let work = GatedWork()
        var callers: [Task<Result<Int, ImageError>, Never>] = []
        /// Joins one caller and waits until it is registered.
        func add(_ priority: ImageLoading.Priority) async {
            callers.append(join(registry, work, priority))
            #expect(await eventually { registry.waiterCount(for: "k") == callers.count })
        }
        await add(.low)  // 0: starts the work
        #expect(await eventually { work.hasStarted })
        await add(.normal)  // 1
        await add(.high)  // 2
        await add(.high)  // 3
        #expect(work.changes == [.normal, .high])
        callers[2].cancel()  // another high one stays
        #expect(await eventually { registry.waiterCount(for: "k") == 3 })
        #expect(work.priority == .high)
        callers[3].cancel()
        #expect(await eventually { work.changes == [.normal, .high, .normal] })
        registry.setPriority(.high, for: work.tickets[0])  // the low caller raised
        #expect(work.changes == [.normal, .high, .normal, .high])
        callers[0].cancel()
        #expect(await eventually { work.changes == [.normal, .high, .normal, .high, .normal] })
        registry.setPriority(.low, for: work.tickets[1])
        #expect(work.changes == [.normal, .high, .normal, .high, .normal, .low])
        work.release()
        var results: [String] = []
        for caller in callers {
            switch await caller.value {
            case .success(let value): results.append("\(value)")
            case .failure(let error): results.append(error.code == .cancelled ? "cancelled" : "\(error)")
            }
        }
        #expect(results == ["cancelled", "42", "cancelled", "cancelled"])
        #expect(registry.startedCount == 1)
        #expect(registry.activeCount == 0)
    }

    /// 60,000 callers of one key, a third of each priority. Finding the highest priority used to visit every
    /// waiter on each join and leave: quadratic, so this test ran over 5 minutes (1.6 s now), and `make soak`'s
    /// 200,000-load storm (10,000 callers per URL) ran 11 minutes without finishing. Now each is a count.
    @Test func sixtyThousandCallersShareOneWorkAndItsPriority() async throws {
        let registry = Registry()
        let work = GatedWork()
        let priorities = (0..<60_000).map { ImageLoading.Priority.allCases[$0 % 3] }
        let callers = priorities.map { join(registry, work, $0) }
        #expect(await eventually { registry.waiterCount(for: "k") == 60_000 })
        #expect(await eventually { work.priority == .high })
        for (caller, priority) in zip(callers, priorities) where priority == .high { caller.cancel() }
        #expect(await eventually { registry.waiterCount(for: "k") == 40_000 })
        #expect(await eventually { work.priority == .normal })
        #expect(work.changes.last == .normal)
        work.release()
        var outcomes: [String: Int] = [:]
        for (caller, priority) in zip(callers, priorities) {
            let outcome =
                switch await caller.value {
                case .success(let value): "\(priority) \(value)"
                case .failure(let error): "\(priority) \(error.code == .cancelled ? "cancelled" : "\(error)")"
                }
            outcomes[outcome, default: 0] += 1
        }
        #expect(outcomes == ["low 42": 20_000, "normal 42": 20_000, "high cancelled": 20_000])
        #expect(registry.startedCount == 1)
        #expect(registry.activeCount == 0)
    }

    /// Each caller's outcome: its value, or "cancelled".
    private func outcome(_ result: Result<Int, ImageError>) -> String {
        switch result {
        case .success(let value): "\(value)"
        case .failure(let error): error.code == .cancelled ? "cancelled" : "\(error)"
        }
    }

    @Test func aCancellationBeforeTheCallerJoinsEndsItWhenItJoins() async throws {
        let registry = Registry()
        let cancellation = WaiterCancellation()
        cancellation.cancel()
        let result = await registry.run(key: "k", priority: .normal, cancellation: cancellation) { _ in .success(1) }
        #expect(outcome(result) == "cancelled")
        #expect(registry.activeCount == 0)
        #expect(registry.waiterCount(for: "k") == 0)
    }

    @Test func aCancellationEndsOneWaitingCallerAndTheOthersGetTheResult() async throws {
        let registry = Registry()
        let work = GatedWork()
        let cancellations = (0..<10).map { _ in WaiterCancellation() }
        let callers = cancellations.map { cancellation in
            Task { await registry.run(key: "k", priority: .normal, cancellation: cancellation, work: work.run) }
        }
        #expect(await eventually { registry.waiterCount(for: "k") == 10 })
        for (n, cancellation) in cancellations.enumerated() where n % 2 == 0 {
            cancellation.cancel()
            cancellation.cancel()  // a second cancel does nothing
        }
        #expect(registry.waiterCount(for: "k") == 5)  // left at once, not when the work ends
        work.release()
        var outcomes: [String] = []
        for caller in callers { outcomes.append(outcome(await caller.value)) }
        #expect(outcomes == (0..<10).map { $0 % 2 == 0 ? "cancelled" : "42" })
        #expect(registry.startedCount == 1)
        #expect(registry.activeCount == 0)
    }

    @Test func cancellingTheLastCallerCancelsTheWork() async throws {
        let registry = Registry()
        let sawCancel = Mutex(false)
        let started = Mutex(false)
        let cancellation = WaiterCancellation()
        let caller = Task {
            await registry.run(key: "k", priority: .normal, cancellation: cancellation) { _ in
                started.withLock { $0 = true }
                while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
                sawCancel.withLock { $0 = true }
                return .success(1)
            }
        }
        #expect(await eventually { started.withLock { $0 } })
        cancellation.cancel()
        #expect(outcome(await caller.value) == "cancelled")
        #expect(await eventually { sawCancel.withLock { $0 } })
        #expect(registry.activeCount == 0)
    }

    @Test func aCancellationAfterTheResultTouchesNoLaterCaller() async throws {
        let registry = Registry()
        let cancellation = WaiterCancellation()
        let first = await registry.run(key: "k", priority: .normal, cancellation: cancellation) { _ in .success(1) }
        #expect(outcome(first) == "1")
        let work = GatedWork()
        let later = Task { await registry.run(key: "k", priority: .normal, work: work.run) }
        #expect(await eventually { registry.waiterCount(for: "k") == 1 })
        cancellation.cancel()  // the first caller is gone: nothing to end
        #expect(registry.waiterCount(for: "k") == 1)
        work.release()
        #expect(outcome(await later.value) == "42")
        #expect(registry.startedCount == 2)
    }
}
