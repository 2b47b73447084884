import Testing
import WICoderPDF
import WICore

/// poppler-glib is opened on first use (WICore's `SharedLibrary`): the installed one binds every function the
/// coder calls, and a missing one is `.unsupportedFormat` (1004) naming it, never a crash.
@Suite struct PDFLibraryTests {
    @Test func installedLibraryBindsEveryFunction() throws {
        try PopplerLibrary.check(soname: "libpoppler-glib.so.8")
    }

    @Test func missingLibraryIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) {
            try PopplerLibrary.check(soname: "libpoppler-glib-wi-missing.so.8")
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("cannot load libpoppler-glib-wi-missing.so.8: ") == true)
    }

    @Test func libraryWithoutTheFunctionsIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try PopplerLibrary.check(soname: "libc.so.6") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "libc.so.6 has no function poppler_document_new_from_stream")
    }
}
