import Testing
import WICoderTIFF
import WICore

/// libtiff is opened on first use (WICore's `SharedLibrary`): the installed one binds every function the coder
/// calls, and a missing one is `.unsupportedFormat` (1004) naming it, never a crash.
@Suite struct TIFFLibraryLoadingTests {
    @Test func installedLibraryBindsEveryFunction() throws {
        try TIFFLibrary.check(soname: "libtiff.so.6")
    }

    @Test func missingLibraryIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try TIFFLibrary.check(soname: "libtiff-wi-missing.so.6") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("cannot load libtiff-wi-missing.so.6: ") == true)
    }

    @Test func libraryWithoutTheFunctionsIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try TIFFLibrary.check(soname: "libc.so.6") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("libc.so.6 has no function TIFF") == true)
    }
}
