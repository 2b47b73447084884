import Testing
import WICore
import WILoaderCurl

/// libcurl is opened when the first curl loader starts (WICore's `SharedLibrary`): the installed one binds every
/// function the loader calls, and a missing one is `.unsupportedFormat` (1004) naming it, never a crash.
@Suite struct CurlLibraryTests {
    @Test func linksAndReportsDebianVersion() {
        // Debian 12 ships libcurl 7.88.1 with HTTP/2 (nghttp2).
        #expect(CurlLibrary.version == "7.88.1")
        #expect(CurlLibrary.supportsHTTP2)
    }

    @Test func installedLibraryBindsEveryFunction() throws {
        try CurlLibrary.check(soname: "libcurl.so.4")
    }

    @Test func missingLibraryIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try CurlLibrary.check(soname: "libcurl-wi-missing.so.4") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("cannot load libcurl-wi-missing.so.4: ") == true)
    }

    /// A library without libcurl's functions (libc) is refused with the first function it lacks.
    @Test func libraryWithoutTheFunctionsIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try CurlLibrary.check(soname: "libc.so.6") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "libc.so.6 has no function curl_easy_cleanup")
    }
}
