#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Instrumentation
import Logging
import WICore

// The life of a transfer on the loader's thread: callers join and leave, it starts, its head and body arrive,
// it finishes, fails, retries or resumes.
extension CurlEngine {
    /// Joins `operation` to the transfer of its request identity, starting one if none is queued or running.
    func attach(_ operation: CurlLoadOperation) {
        assertOnLoaderThread()
        guard !operation.isCancelled else { return operation.finish(.failure(.loadCancelled)) }
        let key = operation.identity
        let transfer: Transfer
        if let existing = transfers[key] {
            transfer = existing
        } else {
            transfer = Transfer(key: key, request: operation.request, engine: self, order: order(of: operation.request))
            transfers[key] = transfer
        }
        transfer.callers.append(operation)
        transferOf[ObjectIdentifier(operation)] = transfer
        operation.send(.progress(received: 0, expected: -1))
        if let head = transfer.head {  // a late joiner catches up
            operation.send(.response(head))
            operation.send(.progress(received: Int64(transfer.body.count), expected: transfer.expected))
            if !transfer.body.isEmpty { operation.send(.partialData(transfer.body)) }
        }
        if transfer.callers.count == 1
            || (transfer.state == .queued && transfer.callerPriority != transfer.queuedPriority)
        {
            enqueue(transfer)
        }
    }

    /// Takes `operation` out of its transfer (it gets 2002); the transfer stops when no caller is left.
    func detach(_ operation: CurlLoadOperation) {
        assertOnLoaderThread()
        operation.finish(.failure(.loadCancelled))
        guard let transfer = transferOf.removeValue(forKey: ObjectIdentifier(operation)) else { return }
        transfer.callers.removeAll { $0 === operation }
        guard transfer.callers.isEmpty else { return }
        if transfer.state == .active, let easy = transfer.easy {
            multi.remove(easy)
            transfer.easy = nil
            activeCount -= 1
            if let head = transfer.head { resumeStore.keep(transfer.body, of: head, key: transfer.key) }
        }
        transfer.finish()
        if transfers[transfer.key] === transfer { transfers[transfer.key] = nil }
    }

    /// Starts `transfer`: runs the request modifier, builds the easy handle and adds it to the multi handle.
    func begin(_ transfer: Transfer) {
        assertOnLoaderThread()
        let request = transfer.request
        var http = ImageLoading.HTTPRequest(url: request.url, headers: baseHeaders)
        // Whether the lines differ from `baseHeaderList`, which most transfers send unchanged.
        var customized = !request.headers.isEmpty
        if let etag = request.cachedETag {
            http.headers["If-None-Match"] = etag
            customized = true
        }
        if let date = request.cachedLastModified {
            http.headers["If-Modified-Since"] = date
            customized = true
        }
        http.headers.merge(request.headers) { $1 }
        if let modifier = request.context[.requestModifier] {
            guard let modified = modifier.modified(http) else {
                return fail(transfer, ImageError(.invalidDownloadOperation, "the request modifier cancelled the load"))
            }
            customized = customized || modified.headers != http.headers
            http = modified
        }
        // The trace goes out through the bootstrapped (or configured) instrument, after the identity was made from
        // the request's own headers: trace headers never split shared transfers.
        if let serviceContext = request.serviceContext {
            let instrument = configuration.instrument ?? InstrumentationSystem.instrument
            let before = http.headers
            instrument.inject(serviceContext, into: &http.headers, using: HeaderInjector())
            customized = customized || http.headers != before
        }
        let scheme = http.url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https", configuration.allowedSchemes.contains(scheme) else {
            return fail(
                transfer, ImageError(.schemeNotAllowed, "the scheme of \(http.url.absoluteString) is not allowed"))
        }
        if checksDestinations, let refused = refusedDestination(http.url) {
            return fail(
                transfer, ImageError(.addressNotAllowed, "the address policy refused a connection to \(refused)"))
        }
        transfer.resetResponse()
        transfer.resumed = resumeStore.take(transfer.key)
        if let resumed = transfer.resumed {
            http.headers["Range"] = "bytes=\(resumed.data.count)-"
            http.headers["If-Range"] = resumed.validator
            customized = true
        }
        var settings = CurlRequestSettings(
            url: http.url.absoluteString,
            headers: customized ? CurlHeaderList(http.headers) : baseHeaderList)
        settings.method = http.method.uppercased()
        settings.protocols = allowedProtocols
        settings.maximumRedirects = configuration.maximumRedirects
        settings.connectTimeout = configuration.connectTimeout
        settings.lowSpeedLimit = configuration.lowSpeedLimit
        settings.lowSpeedTime = configuration.lowSpeedTime
        settings.totalTimeout = configuration.totalTimeout
        settings.maximumBodySize = configuration.maximumBodySize
        settings.allowsHTTP2 = configuration.allowsHTTP2
        // Waiting for a connection to tell whether it multiplexes pays only where HTTP/2 is possible (https, known
        // after the TLS handshake); over http it would serialize HTTP/1.1 transfers behind the first response.
        settings.waitsForMultiplexing = configuration.allowsHTTP2 && scheme == "https"
        settings.allowInvalidCertificates =
            configuration.allowInvalidSSLCertificates
            || request.options.contains(.allowInvalidSSLCertificates)
        settings.handleCookies = configuration.handleCookies || request.options.contains(.handleCookies)
        settings.credentials = configuration.credentials
        settings.usesProxyFromEnvironment = configuration.addressPolicy == .unrestricted
        settings.proxy = configuration.proxy?.absoluteString
        guard let easy = easyHandle(for: settings, transfer: transfer) else {
            return fail(transfer, ImageError(.outOfMemory, "curl_easy_init failed"))
        }
        if let error = easy.setupError { return fail(transfer, error) }
        guard multi.add(easy) else {
            return fail(transfer, ImageError(.invalidDownloadOperation, "curl_multi_add_handle failed"))
        }
        transfer.easy = easy
        transfer.state = .active
        activeCount += 1
    }

    /// A spare handle reset for `settings`, or a new one; counted as live and as a started transfer. A spare that
    /// libcurl refuses an option on is freed and a new handle made instead.
    private func easyHandle(for settings: CurlRequestSettings, transfer: Transfer) -> CurlEasy? {
        let privatePointer = Unmanaged.passUnretained(transfer).toOpaque()
        if let spare = spareEasyHandles.popLast() {
            spare.isSpare = false
            updateStatistics {
                $0.spareEasyHandles -= 1
                $0.liveEasyHandles += 1
            }
            spare.reuse(settings, share: multi.shareHandle, privatePointer: privatePointer, events: transfer)
            if spare.setupError == nil {
                updateStatistics {
                    $0.easyHandlesReused += 1
                    $0.transfersStarted += 1
                }
                return spare
            }
        }
        let onFree = { [self] (wasSpare: Bool) in
            updateStatistics { if wasSpare { $0.spareEasyHandles -= 1 } else { $0.liveEasyHandles -= 1 } }
        }
        guard
            let easy = CurlEasy(
                settings, share: multi.shareHandle, privatePointer: privatePointer,
                events: transfer, onFree: onFree)
        else { return nil }
        updateStatistics {
            $0.liveEasyHandles += 1
            $0.transfersStarted += 1
        }
        return easy
    }

    /// Keeps `easy`, whose transfer ended cleanly, for the next transfer when it spoke HTTP/1.x, used no cookies or
    /// credentials, and the pool has room; otherwise it is freed with the caller's last reference.
    private func keepSpare(_ easy: CurlEasy) {
        guard spareEasyHandles.count < min(16, maxConcurrentTransfers), easy.spokeHTTP1, !easy.carriesSessionState
        else { return }
        easy.isSpare = true
        updateStatistics {
            $0.liveEasyHandles -= 1
            $0.spareEasyHandles += 1
        }
        spareEasyHandles.append(easy)
    }

    /// The response head is complete (the first body byte arrived, or the transfer ended without a body):
    /// checks it and tells the callers. False stops the transfer with `transfer.failure`.
    func responseHeadArrived(_ transfer: Transfer) -> Bool {
        guard let easy = transfer.easy else { return false }
        let status = easy.responseCode
        let fields = transfer.headerFields.fields
        let encoded = (fields["content-encoding"] ?? "identity").lowercased() != "identity"
        var length = encoded ? -1 : Int64(fields["content-length"] ?? "") ?? -1
        if let resumed = transfer.resumed {
            let offset = Int64(resumed.data.count)
            if status == 206, let range = fields["content-range"], range.hasPrefix("bytes \(offset)-") {
                transfer.body = resumed.data
                length = length >= 0 ? length + offset : Int64(range.split(separator: "/").last ?? "") ?? -1
            } else if status != 200 {
                transfer.mustRestart = true
                return false
            }
        }
        let url =
            easy.effectiveURL.flatMap {
                $0 == transfer.request.url.absoluteString ? transfer.request.url : URL(string: $0)
            }
            ?? transfer.request.url
        var head = ImageLoading.ResponseHead(
            url: url, statusCode: status, headers: fields, expectedContentLength: length)
        if let error = ResponseValidation.check(&head, request: transfer.request, configuration: configuration) {
            transfer.failure = error
            transfer.refusedHead = ResponseValidation.reportsHead(of: error) ? head : nil
            transfer.failureIsTransient =
                error.code == .badServerResponse
                && configuration.retryPolicy.retryableStatusCodes.contains(status)
            return false
        }
        transfer.head = head
        transfer.expected = head.expectedContentLength
        // Grow the body once, not chunk by chunk; a length beyond 8 MB is left to grow as it arrives.
        if transfer.expected > Int64(transfer.body.count) && transfer.expected <= 8 << 20 {
            transfer.body.reserveCapacity(Int(transfer.expected))
        }
        for caller in transfer.callers {
            caller.send(.response(head))
            caller.send(.progress(received: Int64(transfer.body.count), expected: transfer.expected))
        }
        transfer.lastProgressReceived = Int64(transfer.body.count)
        return true
    }

    /// A chunk arrived: partial data to the callers that want it, progress at most every `progressInterval`.
    func bodyArrived(_ transfer: Transfer, chunk bytes: UnsafeRawBufferPointer) {
        let received = Int64(transfer.body.count)
        let now = Self.now
        let sendProgress =
            now - transfer.lastProgressTime >= configuration.progressInterval || received == transfer.expected
        if sendProgress {
            transfer.lastProgressTime = now
            transfer.lastProgressReceived = received
        }
        // Copy the chunk only when a caller decodes progressively.
        let chunk = transfer.callers.contains { $0.request.wantsPartialData } ? Data(bytes) : nil
        for caller in transfer.callers {
            if let chunk { caller.send(.partialData(chunk)) }
            if sendProgress { caller.send(.progress(received: received, expected: transfer.expected)) }
        }
    }

    /// Whether the loader checks destinations itself: a proxy under `.publicOnly`, where every connection goes
    /// to the (trusted) proxy.
    var checksDestinations: Bool {
        guard configuration.proxy != nil, case .publicOnly = configuration.addressPolicy else { return false }
        return true
    }

    /// The first address of `url`'s host the policy refuses (or the host when it does not resolve), nil when all
    /// are allowed. Resolves on the calling thread.
    func refusedDestination(_ url: URL) -> String? {
        guard let host = url.host, !host.isEmpty else { return url.absoluteString }
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let addresses = DestinationResolver.addresses(of: name)
        guard !addresses.isEmpty else { return name }
        return addresses.first { !policyAllows($0.text, bytes: $0.bytes) }?.text
    }

    /// Whether the address policy lets a connection go to `address`.
    func addressAllowed(_ address: String, bytes: [UInt8]) -> Bool {
        // Through a proxy every connection is to the proxy, which is trusted; destinations are checked apart.
        if checksDestinations { return true }
        return policyAllows(address, bytes: bytes)
    }

    /// The address policy's verdict on `address`.
    func policyAllows(_ address: String, bytes: [UInt8]) -> Bool {
        guard case .publicOnly(let exceptions) = configuration.addressPolicy else { return true }
        if exceptions.contains(address) { return true }
        return bytes.count == 4 ? AddressClassifier.isPublic(ipv4: bytes) : AddressClassifier.isPublic(ipv6: bytes)
    }

    /// libcurl finished `transfer` with `result`: completes, retries or restarts it.
    func transferFinished(_ transfer: Transfer, result: CurlResult) {
        guard let easy = transfer.easy else { return }
        multi.remove(easy)
        activeCount -= 1
        var error: ImageError?
        var transient = false
        if transfer.mustRestart {
            transfer.easy = nil
            transfer.resumed = nil
            return enqueue(transfer)
        } else if let failure = transfer.failure {
            error = failure
            transient = transfer.failureIsTransient
        } else if !result.isOK {
            if let address = transfer.refusedAddress {
                error = ImageError(.addressNotAllowed, "the address policy refused a connection to \(address)")
            } else {
                error = result.error(detail: easy.errorDetail)
                transient = result.isTransient
            }
        } else if transfer.head == nil, !responseHeadArrived(transfer) {
            error = transfer.failure
            transient = transfer.failureIsTransient
            if transfer.mustRestart {
                transfer.easy = nil
                transfer.resumed = nil
                return enqueue(transfer)
            }
        }
        let metrics = easy.metrics
        transfer.easy = nil
        if let error {
            let policy = configuration.retryPolicy
            if transient && transfer.retries < policy.maximumRetries {
                transfer.retries += 1
                configuration.logger.debug(
                    "retrying a transfer after a transient failure",
                    metadata: [
                        "webimage.url": "\(transfer.request.url.absoluteString)",
                        "webimage.error.code": "\(error.code.rawValue)",
                        "webimage.retry": "\(transfer.retries)",
                    ])
                transfer.resetResponse()
                transfer.state = .waitingForRetry
                retryQueue.append((Self.now + policy.delay(beforeRetry: transfer.retries), transfer))
                return
            }
            return fail(transfer, error)
        }
        keepSpare(easy)
        let received = Int64(transfer.body.count)
        if transfer.lastProgressReceived != received {
            transfer.callers.forEach { $0.send(.progress(received: received, expected: transfer.expected)) }
        }
        let (body, head) = (transfer.body, transfer.head)
        let callers = retire(transfer)
        ResponseValidation.complete(
            callers, data: body, head: head, metrics: metrics, request: transfer.request,
            pool: workers)
    }

    /// Ends `transfer` with `error` for every caller.
    func fail(_ transfer: Transfer, _ error: ImageError) {
        if configuration.logger.logLevel <= .debug {
            configuration.logger.debug(
                "transfer failed: \(error.message)",
                metadata: [
                    "webimage.url": "\(transfer.request.url.absoluteString)",
                    "webimage.error.code": "\(error.code.rawValue)",
                ])
        }
        let head = transfer.refusedHead
        for caller in retire(transfer) {
            if let head { caller.send(.response(head)) }
            caller.finish(.failure(error))
        }
    }

    /// Writes a service context's fields as request headers.
    struct HeaderInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
            carrier[key] = value
        }
    }

    /// Forgets a finished transfer and returns its callers.
    private func retire(_ transfer: Transfer) -> [CurlLoadOperation] {
        transfer.finish()
        if transfers[transfer.key] === transfer { transfers[transfer.key] = nil }
        for caller in transfer.callers { transferOf[ObjectIdentifier(caller)] = nil }
        defer { transfer.callers = [] }
        return transfer.callers
    }
}
