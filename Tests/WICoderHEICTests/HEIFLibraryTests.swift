import Testing
import WICoderHEIC

@Suite struct HEIFLibraryTests {
    @Test func linksAndReportsDebianVersion() {
        #expect(HEIFLibrary.version == "1.15.1")
    }
}
