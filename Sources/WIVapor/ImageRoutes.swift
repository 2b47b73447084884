public import Vapor

extension RoutesBuilder {
    /// Answers GET and HEAD of `path` (an app's own image URL, e.g. `avatars/:id/:size`) with `service`: `route`
    /// turns the request into what to load and do (`ImageRoute`); the answer is cached as a variant and validated
    /// (ETag, 304) under the service's gate, deadline, limits and error answers. An error `route` throws is
    /// answered as Vapor answers it when it is an `AbortError` (its status and reason, through the app's
    /// `ErrorMiddleware`); a pipeline `ImageError` gets the service's status and one-line public reason; anything
    /// else a 500 whose text goes to the service's log only (at debug).
    ///
    /// ```swift
    /// app.addImageRoute("avatars", ":id", ":size", service: service) { req in
    ///     let id = try req.parameters.require("id"), size = try req.parameters.require("size", as: Int.self)
    ///     return ImageRoute(source: URL(string: "https://cdn.example.com/\(id).jpg")!,
    ///                       transformer: try .resize(width: size, height: size, mode: .aspectFill), format: .webp)
    /// }
    /// ```
    ///
    /// Thread safety: call while configuring the app, as for any route; `route` is called from any task, once
    /// per request.
    public func addImageRoute(
        _ path: PathComponent..., service: ImageService,
        route: @escaping @Sendable (Request) async throws -> ImageRoute
    ) {
        let handler: @Sendable (Request) async throws -> Response = { request in
            Response(
                try await service.respondMounted(
                    to: ServeRequest(request, path: request.url.path),
                    describedBy: { try await route(request) },
                    isServersOwn: { $0 is any AbortError }))
        }
        on(.GET, path, use: handler)
        on(.HEAD, path, use: handler)
    }
}
