import Testing
import WITransform

@Suite struct PixmanLibraryTests {
    @Test func linksAndReportsDebianVersion() {
        #expect(PixmanLibrary.version == "0.42.2")
    }
}
