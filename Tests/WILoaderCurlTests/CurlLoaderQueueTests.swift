import Foundation
import Synchronization
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderQueueTests {
    /// Serves /0 ... /n and /gate, whose body is held after its first byte until the test opens the returned
    /// gate: the other loads queue up behind it however slow the machine is. Tests queue them once the server has
    /// seen /gate, so that the order they check is the queue's alone.
    private func server(paths: Int) async throws -> (TestHTTPServer, TestGate) {
        let server = try await TestHTTPServer.start()
        let hold = TestGate()
        server.route("/gate") { _ in
            var response = TestResponse(body: Data([0, 0]), contentType: "image/png")
            response.hold = (afterBytes: 1, gate: hold)
            return response
        }
        for index in 0..<paths {
            server.route("/\(index)") { _ in TestResponse(body: Data([UInt8(index)]), contentType: "image/png") }
        }
        return (server, hold)
    }

    /// The order in which a one-at-a-time LIFO loader starts `requests` (path index, request) queued behind /gate.
    private func lifoStartOrder(_ requests: (TestHTTPServer) -> [(Int, ImageLoading.Request)]) async throws -> [Int] {
        let (server, hold) = try await server(paths: 4)
        let started = Mutex<[Int]>([])
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.maxConcurrentTransfers = 1
                $0.executionOrder = .lifo
            })
        let (_, gate) = loader.start(server.url("/gate"))
        try #require(await eventually { server.requestCount("/gate") == 1 })
        var recorders: [LoadRecorder] = []
        for (index, request) in requests(server) {
            let recorder = LoadRecorder()
            _ = loader.load(request, events: { recorder.record($0) }) { result in
                started.withLock { $0.append(index) }
                recorder.complete(result)
            }
            recorders.append(recorder)
        }
        #expect((0..<4).map { server.requestCount("/\($0)") } == [0, 0, 0, 0])  // all wait behind the held /gate
        await loader.settle()  // every load is queued behind /gate before it finishes
        hold.open()
        _ = await gate.waitForCompletion()
        for recorder in recorders { _ = await recorder.waitForCompletion() }
        return started.withLock { $0 }
    }

    @Test func lifoStartsTheNewestFirst() async throws {
        let order = try await lifoStartOrder { server in
            (0..<4).map { ($0, ImageLoading.Request(url: server.url("/\($0)"))) }
        }
        #expect(order == [3, 2, 1, 0])
    }

    @Test func lifoFollowsTheHandoverOrderNotTheArrival() async throws {
        // A manager numbers its calls when they are made; its tasks may reach the loader in another order.
        let order = try await lifoStartOrder { server in
            [(2, UInt64(12)), (0, 10), (3, 13), (1, 11)].map { index, handover in
                var request = ImageLoading.Request(url: server.url("/\(index)"))
                request.handoverOrder = handover
                return (index, request)
            }
        }
        #expect(order == [3, 2, 1, 0])  // newest handed over first
    }

    /// SDWebImage's `test15DownloaderLIFOExecutionOrder`: one load at a time, LIFO; 1 to 7 handed over at once,
    /// 8 to 14 once 7 has started. 1 starts at once, as it finds the loader idle (the loader's thread takes the
    /// seven in one batch, and used to queue them all before starting any: 7 came first), then the newest waiting.
    @Test func lifoStartsALoadThatFindsAFreeSlotAtOnce() async throws {
        let server = try await TestHTTPServer.start()
        let holds = [1: TestGate(), 7: TestGate()]
        for index in 1...14 {
            server.route("/\(index)") { _ in
                var response = TestResponse(body: Data([UInt8(index), 0]), contentType: "image/png")
                if let gate = holds[index] { response.hold = (afterBytes: 1, gate: gate) }
                return response
            }
        }
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.maxConcurrentTransfers = 1
                $0.executionOrder = .lifo
            })
        let finished = Mutex<[Int]>([])
        func load(_ index: Int) -> LoadRecorder {
            let recorder = LoadRecorder()
            _ = loader.load(ImageLoading.Request(url: server.url("/\(index)")), events: { recorder.record($0) }) {
                result in
                finished.withLock { $0.append(index) }
                recorder.complete(result)
            }
            return recorder
        }
        var recorders = (1...7).map(load)
        #expect(await eventually { server.requestCount("/1") == 1 })
        await loader.settle()
        #expect((2...7).map { server.requestCount("/\($0)") } == [0, 0, 0, 0, 0, 0])
        holds[1]?.open()
        #expect(await eventually { server.requestCount("/7") == 1 })
        recorders += (8...14).map(load)
        await loader.settle()
        holds[7]?.open()
        for recorder in recorders { _ = await recorder.waitForCompletion() }
        #expect(finished.withLock { $0 } == [1, 7, 14, 13, 12, 11, 10, 9, 8, 6, 5, 4, 3, 2])
    }

    @Test func fifoAndPrioritiesDecideTheOrder() async throws {
        let (server, hold) = try await server(paths: 5)
        let finished = Mutex<[Int]>([])
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.maxConcurrentTransfers = 1 })
        let (_, gate) = loader.start(server.url("/gate"))
        try #require(await eventually { server.requestCount("/gate") == 1 })
        let priorities: [ImageLoading.Priority] = [.low, .normal, .high, .normal, .low]
        var operations: [any ImageLoading.Operation] = []
        var recorders: [LoadRecorder] = []
        for (index, priority) in priorities.enumerated() {
            let recorder = LoadRecorder()
            let request = ImageLoading.Request(url: server.url("/\(index)"), priority: priority)
            operations.append(
                loader.load(request, events: { recorder.record($0) }) { result in
                    finished.withLock { $0.append(index) }
                    recorder.complete(result)
                })
            recorders.append(recorder)
        }
        operations[4].setPriority(.high)  // while queued: jumps ahead of /1 and /3, behind /2 (queued earlier)
        #expect((0..<5).map { server.requestCount("/\($0)") } == [0, 0, 0, 0, 0])
        await loader.settle()  // every load is queued behind /gate before it finishes
        hold.open()
        _ = await gate.waitForCompletion()
        for recorder in recorders { _ = await recorder.waitForCompletion() }
        #expect(finished.withLock { $0 } == [2, 4, 1, 3, 0])
    }

    @Test func concurrencyLimitAppliesAndChangesLive() async throws {
        let server = try await TestHTTPServer.start()
        for index in 0..<6 {
            // Never answers within the test: the loads are cancelled at the end.
            server.route("/\(index)") { _ in TestResponse(body: Data([1]), contentType: "image/png").delayed(by: 120) }
        }
        let seen = { (0..<6).map { server.requestCount("/\($0)") }.reduce(0, +) }
        let loader = try CurlImageLoader(configuration: testConfiguration { $0.maxConcurrentTransfers = 2 })
        #expect(loader.maxConcurrentTransfers == 2)
        let loads = (0..<6).map { loader.start(server.url("/\($0)")) }
        #expect(await eventually { seen() == 2 })
        await loader.settle()  // every start handled and the queue started from: what runs now is all that may
        #expect(loader.statistics.transfersStarted == 2)
        #expect(loader.statistics.liveEasyHandles == 2)
        loader.maxConcurrentTransfers = 6
        #expect(await eventually { seen() == 6 })
        loads.forEach { $0.0.cancel() }
        for (_, recorder) in loads { #expect(await recorder.waitForCompletion()?.error?.code == .cancelled) }
        #expect(await loader.waitUntilIdle() == 0)
    }
}
