// Thumbnails inside a Vapor app's own server: the app's page at `/`, thumbor's URLs at `/thumbs` and an avatar
// route at `/avatars/:id/:size`, answered by WebImage's ImageService over a manager the app made.
// PORT, AVATAR_SOURCE, THUMBOR_KEY and ALLOWED_HOSTS set it up (ExampleSettings); README.md has curl lines.
import ExampleSettings
import Vapor
import WebImage
import WIVapor

let settings = ExampleSettings()
let manager = try settings.makeManager()
// The service over the app's manager: it adds its cache of encoded answers, ETags, its gate and limits.
let service = try await ImageService(configuration: settings.configuration, manager: manager)

var environment = try Environment.detect()
try LoggingSystem.bootstrap(from: &environment)
let app = try await Application.make(environment)
app.http.server.configuration.hostname = "127.0.0.1"
app.http.server.configuration.port = settings.port
app.get { _ in "An app with thumbnails: /avatars/ID/SIZE and /thumbs/unsafe/300x200/IMAGE_URL\n" }
// thumbor's URLs under /thumbs (a catch-all route that hands the service the path as it was sent).
app.addThumborRoutes(at: "thumbs", service: service)
// The app's own image URL: an Abort thrown here is Vapor's answer, an ImageError the service's.
app.addImageRoute("avatars", ":id", ":size", service: service) { req in
    let size = try req.parameters.require("size", as: Int.self)
    guard let avatar = try settings.avatar(id: req.parameters.require("id"), size: size) else {
        throw Abort(.notFound, reason: "no such avatar")
    }
    return avatar
}

// Runs until SIGTERM or SIGINT (Vapor's `serve` command), then shuts the app and the image parts down.
do {
    try await app.execute()
} catch {
    try? await app.asyncShutdown()
    throw error
}
try await app.asyncShutdown()
await service.shutdown()
await manager.shutdown()
