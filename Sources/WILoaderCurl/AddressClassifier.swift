/// Decides whether a peer address is public unicast, for `AddressPolicy.publicOnly`.
///
/// Thread safety: stateless; safe from any thread.
enum AddressClassifier {
    /// Whether the IPv4 address `a` (4 bytes, network order) is public unicast.
    static func isPublic(ipv4 a: [UInt8]) -> Bool {
        guard a.count == 4 else { return false }
        switch (a[0], a[1]) {
        case (0, _), (10, _), (127, _): return false  // this network, private, loopback
        case (100, 64...127): return false  // CGNAT (RFC 6598)
        case (169, 254): return false  // link-local, cloud metadata
        case (172, 16...31), (192, 168): return false  // private
        case (192, 0) where a[2] == 0 || a[2] == 2: return false  // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): return false  // benchmarking
        case (198, 51) where a[2] == 100, (203, 0) where a[2] == 113: return false  // TEST-NET-2, -3
        case (224...255, _): return false  // multicast, reserved, broadcast
        default: return true
        }
    }

    /// Whether the IPv6 address `a` (16 bytes, network order) is public unicast. IPv4-mapped (::ffff:a.b.c.d),
    /// IPv4-compatible and NAT64 (64:ff9b::/96) addresses are refused outright: they can reach IPv4 networks
    /// the IPv4 check is meant to guard.
    static func isPublic(ipv6 a: [UInt8]) -> Bool {
        guard a.count == 16 else { return false }
        if a[0..<10].allSatisfy({ $0 == 0 }) { return false }  // ::, ::1, ::ffff:x, ::x (compatible)
        if a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b { return false }  // NAT64
        if a[0] & 0xfe == 0xfc { return false }  // unique local fc00::/7 (AWS fd00:ec2::254)
        if a[0] == 0xfe && a[1] & 0xc0 == 0x80 { return false }  // link-local fe80::/10
        if a[0] == 0xfe && a[1] & 0xc0 == 0xc0 { return false }  // site-local fec0::/10 (deprecated)
        if a[0] == 0xff { return false }  // multicast
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8 { return false }  // documentation
        return true
    }
}
