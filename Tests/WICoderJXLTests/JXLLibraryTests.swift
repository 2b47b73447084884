import Testing
import WICoderJXL
import WICore

/// libjxl is opened on first use (WICore's `SharedLibrary`): the installed one binds every function the coder
/// calls, and a missing one is `.unsupportedFormat` (1004) naming it, never a crash.
@Suite struct JXLLibraryTests {
    @Test func installedLibraryBindsEveryFunction() throws {
        try JXLLibrary.check(soname: "libjxl.so.0.7")
    }

    @Test func missingLibraryIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try JXLLibrary.check(soname: "libjxl-wi-missing.so.0.7") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("cannot load libjxl-wi-missing.so.0.7: ") == true)
    }

    @Test func libraryWithoutTheFunctionsIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try JXLLibrary.check(soname: "libc.so.6") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("libc.so.6 has no function Jxl") == true)
    }
}
