import Testing
import WICoderHEIC
import WICore

/// libheif is opened on first use (WICore's `SharedLibrary`): the installed one binds every function the coder
/// calls, and a missing one is `.unsupportedFormat` (1004) naming it, never a crash.
@Suite struct HEIFLibraryLoadingTests {
    @Test func installedLibraryBindsEveryFunction() throws {
        try HEIFLibrary.check(soname: "libheif.so.1")
    }

    @Test func missingLibraryIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try HEIFLibrary.check(soname: "libheif-wi-missing.so.1") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("cannot load libheif-wi-missing.so.1: ") == true)
    }

    @Test func libraryWithoutTheFunctionsIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try HEIFLibrary.check(soname: "libc.so.6") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("libc.so.6 has no function heif_") == true)
    }
}
