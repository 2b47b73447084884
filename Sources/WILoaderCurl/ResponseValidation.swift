#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// SDWebImage's checks of a response head, in its order: the response modifier (2003), 304 (1002 unless the
/// request carried validators), the status code (2001), the content type (2004); then ours: the announced length
/// against the body limit (2007).
enum ResponseValidation {
    /// The error `head` fails with, or nil; `head` becomes the response modifier's version.
    static func check(
        _ head: inout ImageLoading.ResponseHead, request: ImageLoading.Request,
        configuration: CurlImageLoader.Configuration
    ) -> ImageError? {
        if let seconds = configuration.defaultMaxAge, head.statusCode != nil {
            defaultFreshness(&head, seconds: seconds)
        }
        if let modifier = request.context[.responseModifier] {
            guard let modified = modifier.modified(head) else {
                return ImageError(.invalidDownloadResponse, "the response modifier rejected the response")
            }
            head = modified
        }
        if let status = head.statusCode {
            if status == 304 {
                // The answer to a conditional request: no body, the cached copy stands (`complete` delivers it).
                if request.isConditional { return nil }
                return ImageError(
                    .cacheNotModified, "the server answered 304 Not Modified and nothing is cached",
                    statusCode: status)
            }
            if !configuration.acceptableStatusCodes.contains(status) {
                return ImageError(.badServerResponse, "unacceptable status code \(status)", statusCode: status)
            }
        }
        if let types = configuration.acceptableContentTypes, let mime = head.mimeType,
            !types.contains(mime), !(mime.hasPrefix("image/") && types.contains("image/*")), !types.contains("*/*")
        {
            return ImageError(
                .invalidDownloadContentType, "unacceptable content type \(mime)",
                statusCode: head.statusCode)
        }
        if head.expectedContentLength > configuration.maximumBodySize {
            return ImageError(
                .bodyTooLarge,
                "the announced body of \(head.expectedContentLength) bytes exceeds "
                    + "the limit of \(configuration.maximumBodySize) bytes")
        }
        return nil
    }

    /// Whether the callers see the head that failed with `error` (as SDWebImage's download token keeps its
    /// `response`): yes for its status, content type or announced length; no when the response modifier rejected
    /// it (the modifier said there is no response to speak of).
    static func reportsHead(of error: ImageError) -> Bool { error.code != .invalidDownloadResponse }

    /// Delivers a finished body to `callers`: a 304 to a conditional request succeeds with no bytes and its head,
    /// other empty bodies fail (1001), the decryptor (if any) runs on a worker thread and fails with 1001 when it
    /// returns nil.
    static func complete(
        _ callers: [CurlLoadOperation], data: Data, head: ImageLoading.ResponseHead?,
        metrics: ImageLoading.Metrics?, request: ImageLoading.Request, pool: WorkerPool
    ) {
        if head?.statusCode == 304 && request.isConditional {
            // Not modified: no body, and nothing for the decryptor; the head says so.
            let result = ImageLoadResult(data: Data(), response: head, metrics: metrics)
            callers.forEach { $0.finish(.success(result)) }
            return
        }
        guard !data.isEmpty else {
            callers.forEach { $0.finish(.failure(ImageError(.badImageData, "the response body is empty"))) }
            return
        }
        guard let decryptor = request.context[.decryptor] else {
            let result = ImageLoadResult(data: data, response: head, metrics: metrics)
            callers.forEach { $0.finish(.success(result)) }
            return
        }
        pool.execute {
            let outcome: Result<ImageLoadResult, ImageError>
            if let plain = decryptor.decrypted(data, response: head), !plain.isEmpty {
                outcome = .success(ImageLoadResult(data: plain, response: head, metrics: metrics))
            } else {
                outcome = .failure(ImageError(.badImageData, "the decryptor could not decrypt the data"))
            }
            callers.forEach { $0.finish(outcome) }
        }
    }

    /// Gives an HTTP answer that says nothing about its freshness (no `Cache-Control` max-age, s-maxage,
    /// no-cache or no-store, no `Expires`) `Cache-Control: max-age=seconds`.
    static func defaultFreshness(_ head: inout ImageLoading.ResponseHead, seconds: Int) {
        let control = head.headers["cache-control"]?.lowercased() ?? ""
        let says = ["max-age", "s-maxage", "no-cache", "no-store"].contains { control.contains($0) }
        guard !says, head.headers["expires"] == nil else { return }
        head.headers["cache-control"] = control.isEmpty ? "max-age=\(seconds)" : "\(control), max-age=\(seconds)"
    }
}
