import Testing
import WICore
import WIColor

/// liblcms2 opened on first use, and what a missing library means.
@Suite struct LittleCMSLibraryTests {
    @Test func versionIsDebians() {
        #expect(LittleCMSLibrary.version.hasPrefix("2."))
    }

    @Test func missingLibraryIsUnsupportedFormat() {
        #expect(throws: ImageError.self) { try LittleCMSLibrary.check(soname: "liblcms2-missing.so.9") }
        do {
            try LittleCMSLibrary.check(soname: "liblcms2-missing.so.9")
        } catch {
            #expect(error.code == .unsupportedFormat)
        }
    }
}
