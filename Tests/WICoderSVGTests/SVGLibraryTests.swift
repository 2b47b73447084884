import Testing
import WICairo
import WICoderSVG
import WICore

/// librsvg and cairo are opened on first use (WICore's `SharedLibrary`): the installed ones bind every function
/// the coder calls, and a missing one is `.unsupportedFormat` (1004) naming it, never a crash.
@Suite struct SVGLibraryTests {
    @Test func installedLibrariesBindEveryFunction() throws {
        try RsvgLibrary.check(soname: "librsvg-2.so.2")
        try CairoLibrary.check(soname: "libcairo.so.2")
    }

    @Test func missingLibrariesAreUnsupportedFormat() {
        for (check, soname) in [
            (RsvgLibrary.check, "librsvg-wi-missing.so.2"), (CairoLibrary.check, "libcairo-wi-missing.so.2"),
        ] {
            let error = #expect(throws: ImageError.self) { try check(soname) }
            #expect(error?.code == .unsupportedFormat)
            #expect(error?.message.hasPrefix("cannot load \(soname): ") == true)
        }
    }

    /// A library without librsvg's functions (libc) is refused with the first function it lacks.
    @Test func libraryWithoutTheFunctionsIsUnsupportedFormat() {
        let error = #expect(throws: ImageError.self) { try RsvgLibrary.check(soname: "libc.so.6") }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "libc.so.6 has no function rsvg_handle_new_from_stream_sync")
    }
}
