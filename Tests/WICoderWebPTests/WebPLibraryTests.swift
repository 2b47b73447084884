import Testing
import WICoderWebP

@Suite struct WebPLibraryTests {
    @Test func linksAndReportsDebianVersion() {
        #expect(WebPLibrary.decoderVersion == "1.2.4")
        #expect(WebPLibrary.encoderVersion == "1.2.4")
        #expect(WebPLibrary.demuxVersion == "1.2.4")
        #expect(WebPLibrary.muxVersion == "1.2.4")
    }
}
