@_exported public import WIServeCore
public import Vapor

extension RoutesBuilder {
    /// Answers thumbor's URLs under `prefix` with `service`: `GET|HEAD /PREFIX/{unsafe|SIGNATURE}/.../IMAGE_URL`
    /// goes through the service's admission gate, variant cache, limits and error answers; every other path stays
    /// the app's. Works on an `Application` and on any group of it (its middleware runs first).
    ///
    /// A catch-all route (`PREFIX/**`), not a middleware: Vapor's router drops a path's empty segments (the `//`
    /// of `http://`) when it matches, but the handler reads the path as it was sent (`req.url.path`, not
    /// percent-decoded), so the service gets every byte after the prefix; and a group's middleware runs only for
    /// the group's routes, so only a route can be mounted in a group. The app's own routes under the prefix win
    /// (the router prefers constant segments to a catch-all).
    ///
    /// ```swift
    /// let service = try await ImageService(configuration: configuration, manager: appManager)
    /// app.addThumborRoutes(at: "thumbs", service: service)   // /thumbs/unsafe/300x200/example.com/a.jpg
    /// ```
    ///
    /// Thread safety: call while configuring the app, as for any route; the routes answer requests from any task.
    public func addThumborRoutes(at prefix: PathComponent..., service: ImageService) {
        let handler: @Sendable (Request) async -> Response = { request in
            let path = CatchallPath.suffix(of: request.url.path, keepingLast: request.parameters.getCatchall().count)
            return Response(await service.respondMounted(to: ServeRequest(request, path: path)))
        }
        on(.GET, prefix + [.catchall], use: handler)
        on(.HEAD, prefix + [.catchall], use: handler)
    }
}

/// Where a catch-all route's own part of a path starts.
enum CatchallPath {
    /// What follows a catch-all route's prefix in the raw path `raw`: its last `count` non-empty segments, with
    /// the empty ones among and after them, from the `/` before the first (`raw` when it has fewer segments).
    static func suffix(of raw: String, keepingLast count: Int) -> String {
        let segments = raw.split(separator: "/", omittingEmptySubsequences: false)
        let filled = segments.indices.filter { !segments[$0].isEmpty }
        guard count > 0, count <= filled.count else { return raw }
        return "/" + segments[filled[filled.count - count]...].joined(separator: "/")
    }
}
