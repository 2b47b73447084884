import Foundation
import Synchronization
import Testing
import WICore
import WITestSupport

/// A progressive mock coder: partial images appear after every 64 bytes, final image at the end.
final class ChunkCoder: ProgressiveImageCoder, Sendable {
    let inner = MockCoder(magic: "MOCK", marker: 9)
    func canDecode(_ data: Data) -> Bool { inner.canDecode(data) }
    func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        try inner.decode(data, options: options)
    }
    func makeIncrementalDecoder(header: Data, options: DecodeOptions) -> (any IncrementalImageDecoder)? {
        Decoder(coder: inner, options: options)
    }
    final class Decoder: IncrementalImageDecoder {
        let coder: MockCoder, options: DecodeOptions
        var data = Data()
        init(coder: MockCoder, options: DecodeOptions) {
            self.coder = coder
            self.options = options
        }
        func append(_ chunk: Data) throws(ImageError) -> Bool {
            data += chunk
            return data.count >= 64
        }
        func currentImage() -> Image? {
            (try? coder.decode(data.prefix(16), options: options))?.with(flags: .incremental)
        }
        func finish() throws(ImageError) -> Image { try coder.decode(data, options: options) }
    }
}

@Suite struct ProgressiveAndRefreshTests {
    @Test func progressiveLoadDeliversPartialImagesThenTheFinalOne() async throws {
        let loader = MockLoader(chunkSize: 100, chunkDelay: .milliseconds(5))
        let coder = ChunkCoder()
        let url = URL(string: "mock://h/p.png")!
        loader.register(url, data: coder.inner.data(width: 6, height: 6, extra: String(repeating: "x", count: 2000)))
        let memory = MockMemoryCache()
        let manager = ImageManager(
            cache: TieredImageCache(memory: memory, dataTiers: [], coders: coder), loader: loader, coders: coder)
        let log = Mutex<[String]>([])
        let done = Mutex<Result<ImageResult, ImageError>?>(nil)
        manager.loadImage(
            with: url, options: [.progressiveLoad, .waitStoreCache],
            progress: { event in
                switch event {
                case .bytes(let received, let expected): log.withLock { $0.append("bytes \(received)/\(expected)") }
                case .partialImage(let image):
                    log.withLock { $0.append("partial \(image.size) \(image.flags.contains(.incremental))") }
                }
            }
        ) { result in
            log.withLock { $0.append("done") }
            done.withLock { $0 = result }
        }
        #expect(await eventually { done.withLock { $0 != nil } })
        let entries = log.withLock { $0 }
        #expect(entries.first == "bytes 0/-1")
        #expect(entries.contains("partial 6x6 true"))
        #expect(entries.last == "done")
        #expect(entries.contains("bytes 2016/2016"))
        let image = try #require(try done.withLock { $0 }?.get().image)
        #expect(!image.flags.contains(.incremental))
        #expect(memory.keys == [url.absoluteString])  // the final image only; partial images are never stored
    }

    @Test func refreshCachedCallsBackAgainOnlyWhenTheImageChanged() async throws {
        let h = Harness()
        let url = h.serve("r.png", width: 4, height: 4)
        _ = try await h.manager.loadImage(with: url, options: .waitStoreCache)
        let calls = Mutex<[ImageCacheType]>([])
        h.manager.loadImage(with: url, options: .refreshCached) { result in
            calls.withLock { $0.append((try? result.get())?.cacheType ?? .none) }
        }
        #expect(await eventually { h.loader.loadCount == 2 })
        await h.manager.waitUntilIdle()  // the revalidation is tracked work
        #expect(calls.withLock { $0 } == [.memory])  // unchanged on the server: one callback
        h.loader.register(url, data: h.coder.data(width: 8, height: 8, extra: "new"))
        let sizes = Mutex<[PixelSize]>([])
        h.manager.loadImage(with: url, options: .refreshCached) { result in
            sizes.withLock { $0.append((try? result.get())?.image.size ?? .init(width: 0, height: 0)) }
        }
        #expect(await eventually { sizes.withLock { $0.count } == 2 })
        #expect(sizes.withLock { $0 } == [PixelSize(width: 4, height: 4), PixelSize(width: 8, height: 8)])
    }
}

@Suite struct PrefetcherTests {
    @Test func prefetchesWithProgressAndCountsFailures() async throws {
        let h = Harness()
        let urls =
            (0..<10).map { h.serve("p\($0).png", width: 2, height: 2) } + [URL(string: "mock://host/missing.png")!]
        let prefetcher = ImagePrefetcher(manager: h.manager, maxConcurrentLoads: 3)
        let progress = Mutex<[Int]>([])
        let summary = Mutex<(Int, Int)?>(nil)
        prefetcher.prefetch(urls) { finished, skipped in
            summary.withLock { $0 = (finished, skipped) }
        } progress: { event in
            #expect(event.total == 11)
            #expect((try? event.result.get()) != nil || event.url.lastPathComponent == "missing.png")
            progress.withLock { $0.append(event.finished) }
        }
        #expect(await eventually { summary.withLock { $0 != nil } })
        let counts = try #require(summary.withLock { $0 })
        #expect(counts == (11, 1))
        #expect(progress.withLock { $0 } == Array(1...11))
        #expect(h.loader.loadCount == 11)
        #expect(await eventually { h.memory.keys.count == 10 })
    }

    @Test func cancelStopsTheRest() async throws {
        let h = Harness()
        let urls = (0..<20).map { h.serve("c\($0).png") }
        h.loader.close()
        let prefetcher = ImagePrefetcher(manager: h.manager, maxConcurrentLoads: 2)
        let summary = Mutex<(Int, Int)?>(nil)
        let token = prefetcher.prefetch(urls) { finished, skipped in summary.withLock { $0 = (finished, skipped) } }
        #expect(await eventually { h.loader.waitingCount == 2 })
        token.cancel()
        #expect(await eventually { summary.withLock { $0 != nil } })
        let counts = try #require(summary.withLock { $0 })
        #expect(counts == (20, 20))
        h.loader.open()
        #expect(h.loader.loadCount == 0)
    }
}
