import Foundation
import Synchronization
import Testing
import WICore
@testable import WILoaderCurl

@Suite struct CurlLoaderLocalURLTests {
    private let local = testConfiguration { $0.allowedSchemes = ["http", "https", "file", "data"] }

    @Test func decodesDataURLs() throws {
        let base64 = try #require(DataURL("data:image/png;base64,iVBORw0K"))
        #expect(base64.mediaType == "image/png")
        #expect(base64.data == Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))
        let percent = try #require(DataURL("data:,A%20brief%20note"))
        #expect(percent.mediaType == "text/plain;charset=US-ASCII")
        #expect(percent.data == Data("A brief note".utf8))
        let charset = try #require(DataURL("data:;charset=utf-8,%C3%A9"))
        #expect(charset.mediaType == "text/plain;charset=utf-8")
        #expect(charset.data == Data([0xc3, 0xa9]))
        let unpadded = try #require(DataURL("data:image/gif;base64,R0lGOD%0A lh"))  // whitespace and no padding
        #expect(unpadded.data == Data("GIF89a".utf8))
        #expect(DataURL("data:image/png;base64,@@@") == nil)
        #expect(DataURL("data:text/plain,%zz") == nil)
        #expect(DataURL("data:no-comma") == nil)
        #expect(DataURL("http://example.com/,") == nil)
    }

    @Test func loadsDataURLsWhenAllowed() async throws {
        let loader = try CurlImageLoader(configuration: local)
        let request = ImageLoading.Request(
            url: URL(string: "data:image/png;base64,AQIDBA==")!, options: [.progressiveLoad])
        let (_, recorder) = loader.start(request)
        let result = try #require(await recorder.waitForCompletion()?.value)
        #expect(result.data == Data([1, 2, 3, 4]))
        #expect(result.response?.mimeType == "image/png")
        #expect(result.response?.statusCode == nil)
        #expect(recorder.progress == [[0, -1], [0, 4], [4, 4]])
        #expect(recorder.partialData == Data([1, 2, 3, 4]))
        #expect(await loader.result(URL(string: "data:image/png;base64,")!).error?.code == .badImageData)
        #expect(await loader.result(URL(string: "data:image/png;base64,!!")!).error?.code == .invalidURL)
        let typed = try CurlImageLoader(
            configuration: testConfiguration {
                $0.allowedSchemes = ["data"]
                $0.acceptableContentTypes = ["image/*"]
            })
        #expect(await typed.result(URL(string: "data:text/html,hi")!).error?.code == .invalidDownloadContentType)
        let small = try CurlImageLoader(
            configuration: testConfiguration {
                $0.allowedSchemes = ["data"]
                $0.maximumBodySize = 3
            })
        #expect(await small.result(URL(string: "data:image/png;base64,AQIDBA==")!).error?.code == .bodyTooLarge)
    }

    @Test func loadsFilesWhenAllowed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wi-curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.png")
        let body = testBytes(3000)
        try body.write(to: file)
        let loader = try CurlImageLoader(configuration: local)
        let result = try #require(await loader.result(file).value)
        #expect(result.data == body)
        #expect(result.response?.expectedContentLength == 3000)
        let missing = try #require(await loader.result(directory.appendingPathComponent("none.png")).error)
        #expect(missing.code == .fileNotReadable)
        #expect(loader.shouldBlockFailedURL(file, error: missing))
        let small = try CurlImageLoader(
            configuration: testConfiguration {
                $0.allowedSchemes = ["file"]
                $0.maximumBodySize = 2999
            })
        #expect(await small.result(file).error?.code == .bodyTooLarge)
        var xor = ImageContext()
        xor[.decryptor] = ImageLoading.BlockDataDecryptor { data, _ in Data(data.map { $0 ^ 1 }) }
        let decrypted = await loader.result(ImageLoading.Request(url: file, context: xor))
        #expect(decrypted.value?.data == Data(body.map { $0 ^ 1 }))
    }

    @Test func cancellingALocalLoadCompletesOnceWithCancelled() async throws {
        let loader = try CurlImageLoader(configuration: local)
        let operation = Mutex<(any ImageLoading.Operation)?>(nil)
        var cancelling = ImageContext()
        cancelling[.decryptor] = ImageLoading.BlockDataDecryptor { data, _ in  // the caller cancels just before the end
            let deadline = Date().addingTimeInterval(5)
            while operation.withLock({ $0 }) == nil && Date() < deadline { usleep(100) }  // until load() returned
            operation.withLock { $0 }?.cancel()
            operation.withLock { $0 }?.cancel()
            return data
        }
        let request = ImageLoading.Request(url: URL(string: "data:image/png;base64,AQIDBA==")!, context: cancelling)
        let (started, recorder) = loader.start(request)
        operation.withLock { $0 = started }
        #expect(await recorder.waitForCompletion()?.error?.code == .cancelled)
        #expect(recorder.progress.last == [4, 4])
        await loader.shutdown()  // joins the worker that ran the load: anything it would still do is done
        #expect(recorder.completions == 1)
    }
}
