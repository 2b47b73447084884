import Foundation
import Synchronization
import Testing
import WICoderJPEG
import WICore
import WITestSupport

/// libjpeg asks between rows whether the pool job that decodes was cancelled: a decode in a cancelled job stops
/// at its first row with `.cancelled`, progressive (buffered-image) and baseline files alike; outside such a job,
/// or in one not cancelled, the same decode completes.
@Suite struct JPEGCancellationTests {
    @Test(arguments: ["jpeg/progressive-nuke.jpg", "jpeg/right-orientation.jpg"])
    func aCancelledJobsDecodeStops(path: String) async throws {
        let data = try Data(contentsOf: Fixtures.url(path))
        let coder = JPEGCoder()
        let pool = WorkerPool(name: "test.jpeg", threads: 1)
        defer { pool.shutdown() }
        let started = Atomic<Bool>(false)
        let decode = Task { () throws(ImageError) -> Image in
            try await pool.runCancellable { () throws(ImageError) -> Image in
                started.store(true, ordering: .relaxed)
                while !WorkerPool.isCancelled {}   // the cancellation comes while the job runs
                return try coder.decode(data, options: DecodeOptions())
            }
        }
        while !started.load(ordering: .relaxed) { await Task.yield() }
        decode.cancel()
        guard case .failure(let error) = await decode.result else { Issue.record("the decode completed"); return }
        #expect((error as? ImageError)?.code == .cancelled)
        #expect((error as? ImageError)?.message == "JPEG: the decode was cancelled")
        // Not cancelled: the same bytes decode, in a job and outside one.
        let whole = try await pool.runCancellable { () throws(ImageError) -> Image in
            try coder.decode(data, options: DecodeOptions())
        }
        #expect(whole.pixels == (try coder.decode(data, options: DecodeOptions()).pixels))
    }
}
