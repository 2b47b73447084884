// wi-redis-fleet: a helper process for WICacheRedisTests (not a product). Several of them, started at once, play a
// fleet sharing one Redis: each loads the same URLs through `RedisSingleFlightLoader`, wrapped around an "origin"
// loader of its own that takes DELAY_MS per load and serves bytes derived from the URL.
//
//   wi-redis-fleet PORT COUNT DELAY_MS FIRST CONCURRENCY
//
// Loads test://origin/image<i>.png for i in 0..<COUNT, starting at i = FIRST and wrapping around (so processes
// with different FIRSTs meet each other's leases), CONCURRENCY at a time. Prints "origin <url>" for every load
// that reached this process's origin, then "loaded=N bad=N origin=N shared=N" (shared: results that came from
// Redis, stored or waited for). Exit 0 when every load succeeded with the right bytes, 1 otherwise, 2 on usage
// errors.
import Foundation
import Synchronization
import WICacheRedis
import WICore

/// The bytes the origin serves for `url`: recognisable, and a few KB.
func originBytes(_ url: URL) -> Data {
    Data(String(repeating: url.absoluteString + "|", count: 64).utf8)
}

/// An origin that answers every URL after a delay, with a response head, and remembers what it served.
final class Origin: ImageLoader, Sendable {
    let delay: Double
    let served = Mutex<[String]>([])

    init(delay: Double) { self.delay = delay }

    func canLoad(_ url: URL) -> Bool { url.scheme == "test" }

    func load(
        _ request: ImageLoading.Request, events: @escaping @Sendable (ImageLoading.Event) -> Void,
        completion: @escaping @Sendable (Result<ImageLoadResult, ImageError>) -> Void
    ) -> any ImageLoading.Operation {
        served.withLock { $0.append(request.url.absoluteString) }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            let data = originBytes(request.url)
            let head = ImageLoading.ResponseHead(
                url: request.url, statusCode: 200, headers: [:],
                expectedContentLength: Int64(data.count))
            completion(.success(ImageLoadResult(data: data, response: head)))
        }
        return ImageLoading.FinishedOperation()
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 6, let port = Int(arguments[1]), let count = Int(arguments[2]),
    let delay = Double(arguments[3]),
    let first = Int(arguments[4]), let concurrency = Int(arguments[5]), count > 0, concurrency > 0
else {
    FileHandle.standardError.write(Data("usage: wi-redis-fleet PORT COUNT DELAY_MS FIRST CONCURRENCY\n".utf8))
    exit(2)
}
let redis = try RedisCache(configuration: .init(host: "127.0.0.1", port: port))
let origin = Origin(delay: delay / 1000)
// A long lease: a machine busy with other tests must not let one expire while its holder loads.
let loader = RedisSingleFlightLoader(
    wrapping: origin, redis: redis, leaseDuration: .seconds(60), pollInterval: .milliseconds(5))
let urls = (0..<count).map { URL(string: "test://origin/image\((first + $0) % count).png")! }

/// 0 = from the origin, 1 = from Redis, 2 = failed or wrong bytes.
func fetch(_ url: URL) async -> Int {
    guard let result = try? await loader.load(ImageLoading.Request(url: url)), result.data == originBytes(url) else {
        return 2
    }
    return result.response == nil ? 1 : 0
}

var outcomes = [0, 0, 0]
await withTaskGroup(of: Int.self) { group in
    var next = 0
    while next < min(concurrency, urls.count) {
        group.addTask { [url = urls[next]] in await fetch(url) }
        next += 1
    }
    for await outcome in group {
        outcomes[outcome] += 1
        if next < urls.count {
            group.addTask { [url = urls[next]] in await fetch(url) }
            next += 1
        }
    }
}
let served = origin.served.withLock { $0 }
for url in served { print("origin \(url)") }
print("loaded=\(count - outcomes[2]) bad=\(outcomes[2]) origin=\(served.count) shared=\(outcomes[1])")
exit(outcomes[2] == 0 ? 0 : 1)
