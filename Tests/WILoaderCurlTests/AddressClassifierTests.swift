import Foundation
import Testing
@testable import WILoaderCurl

@Suite struct AddressClassifierTests {
    private func v4(_ text: String) -> [UInt8] { text.split(separator: ".").map { UInt8($0)! } }

    @Test func ipv4() {
        let refused = [
            "0.0.0.0", "0.1.2.3", "10.0.0.1", "127.0.0.1", "127.255.0.9", "100.64.0.1", "100.127.255.255",
            "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.168.0.1", "192.0.0.8", "198.18.0.1",
            "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
        ]
        let allowed = [
            "1.1.1.1", "8.8.8.8", "100.63.255.255", "100.128.0.1", "172.15.0.1", "172.32.0.1",
            "192.169.0.1", "93.184.216.34", "169.253.0.1",
        ]
        for address in refused { #expect(!AddressClassifier.isPublic(ipv4: v4(address)), "\(address)") }
        for address in allowed { #expect(AddressClassifier.isPublic(ipv4: v4(address)), "\(address)") }
    }

    @Test func ipv6() {
        func v6(_ prefix: [UInt8], last: UInt8 = 1) -> [UInt8] {
            prefix + [UInt8](repeating: 0, count: 15 - prefix.count) + [last]
        }
        #expect(!AddressClassifier.isPublic(ipv6: v6([], last: 1)))  // ::1
        #expect(!AddressClassifier.isPublic(ipv6: v6([], last: 0)))  // ::
        #expect(!AddressClassifier.isPublic(ipv6: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 8, 8, 8, 8]))  // mapped
        #expect(!AddressClassifier.isPublic(ipv6: v6([0xfd, 0x00, 0x0e, 0xc2])))  // AWS metadata
        #expect(!AddressClassifier.isPublic(ipv6: v6([0xfe, 0x80])))  // link-local
        #expect(!AddressClassifier.isPublic(ipv6: v6([0xff, 0x02])))  // multicast
        #expect(!AddressClassifier.isPublic(ipv6: v6([0x00, 0x64, 0xff, 0x9b])))  // NAT64
        #expect(AddressClassifier.isPublic(ipv6: v6([0x26, 0x06, 0x47, 0x00])))  // 2606:4700::1
        #expect(AddressClassifier.isPublic(ipv6: v6([0x2a, 0x00, 0x14, 0x50])))
        #expect(!AddressClassifier.isPublic(ipv6: [1, 2, 3]))
    }
}
