#if canImport(Glibc)
import Glibc
#endif
import Testing
import WICore

/// WICore's `SharedLibrary`: a codec library opened on first use. A library or function that cannot be found is
/// `.unsupportedFormat` (1004) naming it; a found one hands back exactly the table its bind function filled.
@Suite struct SharedLibraryTests {
    /// A name for a bind function to return, without allocating.
    private func cString(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    @Test func missingLibraryIsUnsupportedFormat() {
        var bindCalls = 0
        let error = #expect(throws: ImageError.self) {
            _ = try SharedLibrary<Int>(soname: "libwi-not-installed.so.9") { _, _ in
                bindCalls += 1
                return nil
            }
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.hasPrefix("cannot load libwi-not-installed.so.9: ") == true)
        #expect(bindCalls == 0)
    }

    @Test func missingFunctionIsUnsupportedFormatNamingIt() {
        let error = #expect(throws: ImageError.self) {
            _ = try SharedLibrary<Int>(soname: "libc.so.6") { handle, _ in
                dlsym(handle, "wi_no_such_function") == nil ? cString("wi_no_such_function") : nil
            }
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "libc.so.6 has no function wi_no_such_function")
    }

    @Test func boundTableIsKept() throws {
        typealias Length = @convention(c) (UnsafePointer<CChar>?) -> Int
        let library = try SharedLibrary<Length>(soname: "libc.so.6") { handle, table in
            guard let symbol = dlsym(handle, "strlen") else { return cString("strlen") }
            table.initialize(to: unsafeBitCast(symbol, to: Length.self))
            return nil
        }
        #expect(library.soname == "libc.so.6")
        #expect(library.functions("seven!!") == 7)
    }
}
