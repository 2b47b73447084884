import Testing
import WIHash

@Suite struct HexTests {
    @Test func lowercaseTwoDigitsPerByte() {
        #expect(Hex.string([UInt8]()) == "")
        #expect(Hex.string([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
        #expect(Hex.string((0...15).map { UInt8($0 * 17) }) == "00112233445566778899aabbccddeeff")
    }
}
