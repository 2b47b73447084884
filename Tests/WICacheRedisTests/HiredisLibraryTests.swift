import Testing
import WICacheRedis

@Suite struct HiredisLibraryTests {
    @Test func linksAndFormatsACommand() {
        #expect(HiredisLibrary.version == "0.14.1")
        #expect(HiredisLibrary.formatsCommands)
    }
}
