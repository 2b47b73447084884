// A decode worker (WIIsolation's `DecodeWorker`) with every coder of `wi` plus `HostileCoder`, which decodes
// data that starts with "HOSTILE:", or an SVG document with a `<!--HOSTILE:action-->` comment (what a service's
// origin can serve), by misbehaving as the action says: `crash` (a null dereference),
// `hang` (never returns), `allocate` (asks for memory until it gets none), `open` (opens a file for writing),
// `socket` (opens a network socket), `read` (opens a file outside the system folders for reading: EACCES with font access, death without), `exit` (exits with status 3). The isolation tests and the service's tests
// start it; nothing ships it.
import Foundation
import WebImage
import WIIsolation

struct HostileCoder: ImageCoder {
    static let prefix = Data("HOSTILE:".utf8)

    static let marker = Data("<!--HOSTILE:".utf8)

    func canDecode(_ data: Data) -> Bool { action(in: data) != nil }

    /// The action `data` names, or nil.
    func action(in data: Data) -> String? {
        if data.starts(with: Self.prefix) { return String(decoding: data.dropFirst(Self.prefix.count), as: UTF8.self) }
        guard ImageFormat.detect(data) == .svg, let start = data.range(of: Self.marker),
            let end = data.range(of: Data("-->".utf8), in: start.upperBound..<data.endIndex)
        else { return nil }
        return String(decoding: data[start.upperBound..<end.lowerBound], as: UTF8.self)
    }

    func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        let action = action(in: data) ?? ""
        switch action {
        case "crash":
            let pointer = UnsafeMutablePointer<Int>(bitPattern: 8)!
            pointer.pointee = 1
        case "hang":
            while true { sleep(1) }
        case "allocate":
            var blocks: [UnsafeMutableRawPointer] = []
            while let block = malloc(64 << 20) {
                memset(block, 1, 64 << 20)
                blocks.append(block)
            }
            throw ImageError(.outOfMemory, "allocated \(blocks.count * 64) MiB, then no more")
        case "open":
            _ = open("/tmp/wi-hostile-worker-was-here", O_WRONLY | O_CREAT, 0o600)
        case "socket":
            _ = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        case "read":
            // A file outside the system folders (the service's own files, keys...): Landlock refuses it.
            let fd = open("/etc/passwd", O_RDONLY)
            if fd >= 0 { throw ImageError(.badImageData, "read allowed") }
            throw ImageError(.badImageData, "read refused (errno \(errno))")
        case "exit":
            exit(3)
        default:
            throw ImageError(.badImageData, "unknown hostile action \(action)")
        }
        throw ImageError(.badImageData, "the hostile action \(action) did not end the worker")
    }
}

let coders = WebImage.makeCoders()
coders.addCoder(HostileCoder())
exit(DecodeWorker.run(coders: coders))
