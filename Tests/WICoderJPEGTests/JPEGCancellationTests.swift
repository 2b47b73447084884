import Foundation
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
        let error = await CancelledJob.error(on: pool) { () throws(ImageError) in
            try coder.decode(data, options: DecodeOptions())
        }
        #expect(error?.code == .cancelled)
        #expect(error?.message == "JPEG: the decode was cancelled")
        // Not cancelled: the same bytes decode, in a job and outside one.
        let whole = try await pool.runCancellable { () throws(ImageError) -> Image in
            try coder.decode(data, options: DecodeOptions())
        }
        #expect(whole.pixels == (try coder.decode(data, options: DecodeOptions()).pixels))
    }
}
