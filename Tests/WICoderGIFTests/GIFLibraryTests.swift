import Testing
import WICoderGIF

@Suite struct GIFLibraryTests {
    @Test func linksAndReportsDebianVersion() {
        #expect(GIFLibrary.version == "5.2.1")
        // D_GIF_ERR_NOT_GIF_FILE is 103 in giflib 5.
        #expect(GIFLibrary.message(forErrorCode: 103) == "Data is not in GIF format")
    }
}
