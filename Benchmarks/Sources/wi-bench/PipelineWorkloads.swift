// Pipeline workload of `wi-bench`: the full stack end to end (fetch, decode, 256 px thumbnail, disk cache), which
// `Benchmarks/compare` runs against a Python requests + Pillow script on the same images from the same nginx.
import BenchSupport
import Foundation
import Synchronization
import WebImage

/// `e2e LIST CACHE_ROOT`: loads every URL of LIST through `WebImage.makeManager` (memory, disk cache under
/// CACHE_ROOT, curl loader with its 6 transfers at once, every coder) as 256 px thumbnails, each load completing
/// only after its cache store (`.waitStoreCache`). An empty CACHE_ROOT is the cold run; a second process on the
/// same root is the warm run (every image from the disk cache). Prints `done`, `failed`, `from_disk` and `loads`
/// (the loader's loads), so compare can check that the warm run did not touch the network.
func endToEnd(listPath: String, cacheRoot: String) {
    let urls = BenchURLList.read(listPath)
    let manager: ImageManager
    do {
        manager = try WebImage.makeManager(diskCacheRoot: cacheRoot)
    } catch {
        fail("e2e: \(error)")
    }
    let size = 256
    var context = ImageContext()
    context[.thumbnailPixelSize] = PixelSize(width: size, height: size)
    let tally = BatchTally(expected: urls.count)
    let fromDisk = Atomic<Int>(0)
    for url in urls {
        manager.loadImage(with: url, options: [.waitStoreCache], context: context) { result in
            switch result {
            case .success(let value) where max(value.image.width, value.image.height) <= size:
                if value.cacheType == .disk { fromDisk.add(1, ordering: .relaxed) }
                tally.succeeded(bytes: value.image.width * value.image.height * 4)
            case .success(let value):
                tally.failed("\(url): \(value.image.width)x\(value.image.height) is larger than \(size) px")
            case .failure(let error):
                tally.failed("\(url): \(error)")
            }
        }
    }
    tally.wait()
    tally.report()
    print("from_disk", fromDisk.load(ordering: .relaxed))
    print("loads", manager.statistics.loads)
}
