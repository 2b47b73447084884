import Foundation
import Testing
import WICore
import WILoaderCurl
import WITestServer

@Suite struct CurlLoaderHTTP2Tests {
    /// 50 transfers to nginx over TLS: all HTTP/2, multiplexed over a single connection.
    @Test(
        .enabled(
            if: NginxServer.isAvailable,
            "nginx is not installed: apt-get install nginx-light (or nginx) to run the HTTP/2 test"))
    func multiplexesManyTransfersOverOneConnection() async throws {
        let files = Dictionary(uniqueKeysWithValues: (0..<50).map { ("\($0).png", testBytes(20_000, seed: UInt8($0))) })
        let nginx = try await NginxServer(files: files)
        defer { nginx.stop() }
        let loader = try CurlImageLoader(
            configuration: testConfiguration {
                $0.allowInvalidSSLCertificates = true  // self-signed
                $0.maxConcurrentTransfers = 10
            })
        let loads = (0..<50).map { loader.start(nginx.url("\($0).png")) }
        for (index, (_, recorder)) in loads.enumerated() {
            let result = try #require(
                await recorder.waitForCompletion()?.value, "\(index): \(String(describing: recorder.result))")
            #expect(result.data == files["\(index).png"])
            #expect(result.metrics?.httpVersion == "2")
            #expect(result.response?.mimeType == "image/png")
        }
        #expect(loader.statistics.connectionsOpened == 1)
        #expect(loader.statistics.transfersStarted == 50)
        #expect(await loader.waitUntilIdle() == 0)
        #expect(loader.statistics.spareEasyHandles == 0)  // HTTP/2 handles are never reused
        #expect(loader.statistics.easyHandlesReused == 0)
        let strict = try CurlImageLoader(configuration: testConfiguration())
        let error = try #require(await strict.result(nginx.url("0.png")).error)
        #expect(error.code == .networkError)  // the certificate does not verify
        #expect(error.message.hasPrefix("curl error 60: "))
    }
}
