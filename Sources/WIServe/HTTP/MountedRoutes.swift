import WIServeCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import Hummingbird

/// The thumbor URLs under a path prefix of an app's own Hummingbird router: `GET|HEAD PREFIX/{unsafe|SIGNATURE}/...`
/// is answered by an `ImageService` (its admission gate, variant cache, limits and error answers); every other
/// path goes on to the app's routes. A middleware rather than a route, because a thumbor path holds a whole URL
/// (`.../http://host/a.jpg`, empty segments included) that no route pattern matches.
///
/// ```swift
/// let service = try await ImageService(configuration: configuration, manager: appManager)
/// router.addThumborRoutes(at: "/thumbs", service: service)
/// ```
///
/// Thread safety: immutable; Hummingbird calls it from any task.
public struct ThumborRoutesMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The prefix, normalised to start with `/` and end without one (empty: the thumbor URLs at the root).
    public let prefix: String
    public let service: ImageService

    public init(prefix: String, service: ImageService) {
        var normalized = prefix.hasPrefix("/") || prefix.isEmpty ? prefix : "/" + prefix
        while normalized.hasSuffix("/") { normalized.removeLast() }
        self.prefix = normalized
        self.service = service
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let path = request.uri.path
        guard request.method == .get || request.method == .head,
            prefix.isEmpty || path.hasPrefix(prefix + "/")
        else { return try await next(request, context) }
        return await service.respondMounted(to: ServeRequest(http: request, droppingPrefix: prefix)).response
    }
}

extension Router {
    /// Answers the thumbor URLs under `prefix` with `service` (`ThumborRoutesMiddleware`), ahead of the routes.
    @discardableResult
    public func addThumborRoutes(at prefix: String, service: ImageService) -> Self {
        add(middleware: ThumborRoutesMiddleware(prefix: prefix, service: service))
        return self
    }
}

extension RouterMethods {
    /// Answers GET and HEAD of `path` (an app's own image URL, e.g. `/avatars/:id/:size`) with `service`: `route`
    /// turns the request into what to load and do (`ImageRoute`); the answer is cached as a variant and validated
    /// (ETag, 304) under the service's gate, deadline, limits and error answers. An error `route` throws is
    /// answered as Hummingbird answers it (an `HTTPResponseError` with its status and message; a pipeline
    /// `ImageError` with the service's status and public reason; anything else a 500 whose text goes to the
    /// service's log only).
    ///
    /// ```swift
    /// router.addImageRoute("/avatars/:id/:size", service: service) { request, context in
    ///     let id = try context.parameters.require("id"), size = try context.parameters.require("size", as: Int.self)
    ///     return ImageRoute(source: URL(string: "https://cdn.example.com/\(id).jpg")!,
    ///                       transformer: try .resize(width: size, height: size, mode: .aspectFill), format: .webp)
    /// }
    /// ```
    @discardableResult
    public func addImageRoute(
        _ path: RouterPath, service: ImageService,
        route: @escaping @Sendable (Request, Context) async throws -> ImageRoute
    ) -> Self {
        let handler: @Sendable (Request, Context) async throws -> Response = { request, context in
            try await service.respondMounted(
                to: ServeRequest(http: request), describedBy: { try await route(request, context) },
                isServersOwn: { $0 is any HTTPResponseError }
            ).response
        }
        get(path, use: handler)
        head(path, use: handler)
        return self
    }
}
