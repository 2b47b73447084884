import Testing
import WICoderJPEG

@Suite struct JPEGLibraryTests {
    @Test func linksAndReportsDebianVersion() {
        #expect(JPEGLibrary.version == "2.1.5")
        #expect(JPEGLibrary.apiLevel == 62)
        #expect(JPEGLibrary.isAvailable)
    }
}
