import Logging

/// What the HTTP adapters that mount the service in an app's own server share (WIServe's Hummingbird routes,
/// WIVapor's): the request as the service sees it, the answer's header fields, and what an app's route closure's
/// error becomes. Each adapter is left with its framework's types only.
extension ImageService {
    /// The answer to a thumbor URL mounted in an app's server (`respond(to:)`); a failure's detail is logged at
    /// debug, as the app's server does not know it.
    package func respondMounted(to request: ServeRequest) async -> ServeResponse {
        let answer = await respond(to: request)
        logFailure(answer, "thumbor request failed")
        return answer
    }

    /// The answer to an app's own image URL: `describe` (the app's closure) says what to load and do, and the
    /// service answers it (`respond(to:route:)`). An error `describe` throws that `isServersOwn` claims (the
    /// server's HTTP errors, with the status the app chose) is rethrown for the app's server to answer; any other
    /// is answered by the service: an `ImageError` or `ServeError` with its status and public reason, anything
    /// else a 500 whose text goes to the log only.
    package func respondMounted(
        to request: ServeRequest, describedBy describe: () async throws -> ImageRoute,
        isServersOwn: (any Error) -> Bool
    ) async throws -> ServeResponse {
        let route: ImageRoute
        do {
            route = try await describe()
        } catch  where isServersOwn(error) {
            throw error
        } catch {
            let answer = failureAnswer(for: error, method: request.method)
            logFailure(answer, "image route failed")
            return answer
        }
        let answer = await respond(to: request, route: route)
        logFailure(answer, "image route failed")
        return answer
    }

    /// Logs a failed answer's detail (what the client does not see) at debug.
    private func logFailure(_ answer: ServeResponse, _ message: Logger.Message) {
        guard let detail = answer.detail else { return }
        logger.debug(message, metadata: ["status": "\(answer.status)", "error": "\(detail)"])
    }
}

extension ServeRequest {
    /// A request as an HTTP adapter hands it over: `path` after the mount's prefix (not percent-decoded; a `/` is
    /// put first when missing) joined with the `query` as sent, HEAD or else GET, and the three header fields.
    package init(
        isHead: Bool, path: String, query: String?, accept: String?, ifNoneMatch: String?,
        ifModifiedSince: String?
    ) {
        let rooted = path.hasPrefix("/") ? path : "/" + path
        self.init(
            method: isHead ? "HEAD" : "GET", path: query.map { "\(rooted)?\($0)" } ?? rooted, accept: accept,
            ifNoneMatch: ifNoneMatch, ifModifiedSince: ifModifiedSince)
    }
}

extension ServeResponse {
    /// The header fields to send, in order: the answer's, then Content-Length (`contentLength`, the GET body's
    /// length for HEAD too).
    package var fieldsWithLength: [(String, String)] {
        headers + [("Content-Length", String(contentLength))]
    }
}
