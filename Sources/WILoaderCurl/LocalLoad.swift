#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Loads file: and data: URLs without libcurl, on the loader's worker pool (reading a file blocks).
enum LocalLoad {
    static func start(_ operation: CurlLoadOperation, configuration: CurlImageLoader.Configuration, pool: WorkerPool) {
        pool.execute {
            guard !operation.isCancelled else { return operation.finish(.failure(.loadCancelled)) }
            let request = operation.request
            operation.send(.progress(received: 0, expected: -1))
            let loaded: (data: Data, type: String?)
            switch read(request.url, limit: configuration.maximumBodySize) {
            case .success(let value): loaded = value
            case .failure(let error): return operation.finish(.failure(error))
            }
            let length = Int64(loaded.data.count)
            var head = ImageLoading.ResponseHead(
                url: request.url, statusCode: nil,
                headers: loaded.type.map { ["content-type": $0] } ?? [:],
                expectedContentLength: length)
            if let error = ResponseValidation.check(&head, request: request, configuration: configuration) {
                if ResponseValidation.reportsHead(of: error) { operation.send(.response(head)) }
                return operation.finish(.failure(error))
            }
            operation.send(.response(head))
            operation.send(.progress(received: 0, expected: length))
            if length > 0 {
                operation.send(.partialData(loaded.data))
                operation.send(.progress(received: length, expected: length))
            }
            ResponseValidation.complete(
                [operation], data: loaded.data, head: head, metrics: nil, request: request,
                pool: pool)
        }
    }

    /// The bytes behind `url` and their media type (data: URLs only).
    private static func read(_ url: URL, limit: Int64) -> Result<(data: Data, type: String?), ImageError> {
        if url.scheme?.lowercased() == "data" {
            guard let decoded = DataURL(url.absoluteString) else {
                return .failure(ImageError(.invalidURL, "malformed data: URL"))
            }
            guard Int64(decoded.data.count) <= limit else {
                return .failure(ImageError(.bodyTooLarge, "the data: URL holds more than \(limit) bytes"))
            }
            return .success((decoded.data, decoded.mediaType))
        }
        let path = url.path
        // Read one byte past the limit: a larger file fails without reading all of it.
        switch SystemFile.contents(atPath: path, limit: Int(min(limit, Int64(Int.max - 1))) + 1) {
        case .success(let data):
            guard Int64(data.count) <= limit else {
                return .failure(ImageError(.bodyTooLarge, "\(path) is larger than \(limit) bytes"))
            }
            return .success((data, nil))
        case .failure(let error):
            return .failure(ImageError(.fileNotReadable, "cannot read \(path): \(error.message)", underlying: error))
        }
    }
}
