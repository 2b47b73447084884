import Testing
import WILoaderCurl

@Suite struct CurlLibraryTests {
    @Test func linksAndReportsDebianVersion() {
        // Debian 12 ships libcurl 7.88.1 with HTTP/2 (nghttp2).
        #expect(CurlLibrary.version == "7.88.1")
        #expect(CurlLibrary.supportsHTTP2)
    }
}
