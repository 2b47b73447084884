#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// One transfer of one request identity (URL, headers after the modifier, transport options, response modifier and
/// decryptor), shared by every caller of that identity that asked for it while it was queued or running.
///
/// Thread safety: confined to the loader's thread (libcurl's callbacks run there too).
final class Transfer: CurlTransferEvents {
    enum State { case queued, active, waitingForRetry, finished }

    let key: ImageLoading.Identity
    /// The first caller's request; every caller's has the same identity, so any of them would send the same bytes.
    let request: ImageLoading.Request
    unowned let engine: CurlEngine
    var callers: [CurlLoadOperation] = []
    var state = State.queued
    /// The priority the transfer is queued under (the highest of its callers').
    var queuedPriority = ImageLoading.Priority.normal
    /// Retries made so far.
    var retries = 0
    var easy: CurlEasy?

    // The response being received.
    /// Header fields of the latest response, names lowercased (redirects and 1xx responses reset them).
    var headerFields = ResponseHeaderFields()
    var head: ImageLoading.ResponseHead?
    var body = Data()
    var expected: Int64 = -1
    /// A failure found inside a callback, which stopped the transfer; it wins over libcurl's own result.
    var failure: ImageError?
    /// Whether `failure` may be retried (a retryable status code).
    var failureIsTransient = false
    /// The head `failure` refused (its status or content type): the callers see it before the failure.
    var refusedHead: ImageLoading.ResponseHead?
    /// Set when a resumed transfer got neither 206 nor 200: start over without the partial body.
    var mustRestart = false
    /// The partial body this attempt resumes from.
    var resumed: ResumeStore.Entry?
    /// The address the policy refused, if it refused one.
    var refusedAddress: String?
    /// When and at which byte count progress was last reported.
    var lastProgressTime: Double = -.infinity
    var lastProgressReceived: Int64 = -1

    /// Where the transfer queues among others of its priority: its first caller's handover order.
    let order: UInt64

    init(key: ImageLoading.Identity, request: ImageLoading.Request, engine: CurlEngine, order: UInt64) {
        self.key = key
        self.order = order
        self.request = request
        self.engine = engine
    }

    /// The highest priority among the callers.
    var callerPriority: ImageLoading.Priority { callers.map(\.priority).max() ?? .low }

    /// Forgets the last attempt's response, before a retry or a restart.
    func resetResponse() {
        headerFields.removeAll()
        head = nil
        body = Data()
        expected = -1
        failure = nil
        failureIsTransient = false
        refusedHead = nil
        mustRestart = false
        refusedAddress = nil
        lastProgressTime = -.infinity
        lastProgressReceived = -1
    }

    /// Marks the transfer finished and lets go of its response, above all the body: a finished transfer may stay
    /// referenced for a while (a queue compacts its dequeued entries in batches), its body must not.
    func finish() {
        state = .finished
        resetResponse()
        resumed = nil
    }

    func curlHeaderLine(_ line: UnsafeRawBufferPointer) -> Bool {
        headerFields.add(line: line)
        // Through a proxy, a redirect's destination is checked before libcurl follows it (the proxy connects).
        guard engine.checksDestinations, line.count <= 2 || line.first == UInt8(ascii: "\r"),
            (300...399).contains(easy?.responseCode ?? 0),
            let location = headerFields.fields["location"], let current = easy?.effectiveURL.flatMap(URL.init(string:)),
            let next = URL(string: location, relativeTo: current)?.absoluteURL
        else { return true }
        if let refused = engine.refusedDestination(next) {
            refusedAddress = refused
            return false
        }
        return true
    }

    func curlBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if head == nil {
            guard engine.responseHeadArrived(self) else { return false }
        }
        let limit = engine.configuration.maximumBodySize
        if Int64(body.count + bytes.count) > limit {
            failure = ImageError(.bodyTooLarge, "the body exceeds the limit of \(limit) bytes")
            return false
        }
        body.append(contentsOf: bytes)
        engine.bodyArrived(self, chunk: bytes)
        return true
    }

    func curlMayConnect(to address: String, bytes: [UInt8]) -> Bool {
        if engine.addressAllowed(address, bytes: bytes) {
            engine.countConnection()
            return true
        }
        refusedAddress = address
        return false
    }
}
