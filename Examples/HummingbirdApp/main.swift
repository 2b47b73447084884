// Thumbnails inside a Hummingbird app's own server: the app's page at `/`, thumbor's URLs at `/thumbs` and an
// avatar route at `/avatars/:id/:size`, answered by WebImage's ImageService over a manager the app made.
// PORT, AVATAR_SOURCE, THUMBOR_KEY and ALLOWED_HOSTS set it up (ExampleSettings); README.md has curl lines.
import ExampleSettings
import Hummingbird
import WebImage
import WIServe

let settings = ExampleSettings()
let manager = try settings.makeManager()
// The service over the app's manager: it adds its cache of encoded answers, ETags, its gate and limits.
let service = try await ImageService(configuration: settings.configuration, manager: manager)

let router = Router()
router.get("/") { _, _ in "An app with thumbnails: /avatars/ID/SIZE and /thumbs/unsafe/300x200/IMAGE_URL\n" }
// thumbor's URLs under /thumbs (a middleware ahead of the routes: a thumbor path holds a whole URL).
router.addThumborRoutes(at: "/thumbs", service: service)
// The app's own image URL: an HTTPError thrown here is Hummingbird's answer, an ImageError the service's.
router.addImageRoute("/avatars/:id/:size", service: service) { _, context in
    let size = try context.parameters.require("size", as: Int.self)
    guard let avatar = try settings.avatar(id: context.parameters.require("id"), size: size) else {
        throw HTTPError(.notFound, message: "no such avatar")
    }
    return avatar
}

// Runs until SIGTERM or SIGINT, lets the requests in flight finish, then shuts the image parts down.
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: settings.port)))
try await app.runService()
await service.shutdown()
await manager.shutdown()
