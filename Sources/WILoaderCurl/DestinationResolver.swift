#if canImport(Glibc)
import Glibc
#endif

/// Resolves a host name to its addresses (getaddrinfo), for checking a destination the loader does not connect to
/// itself (through a proxy).
enum DestinationResolver {
    /// The IPv4 and IPv6 addresses of `host` (a name or a literal), as text and raw bytes; empty when it does not
    /// resolve.
    static func addresses(of host: String) -> [(text: String, bytes: [UInt8])] {
        // No socket type asked: each address comes once per type, and the duplicates are dropped below.
        var hints = addrinfo()
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found: [(String, [UInt8])] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            let family = current.pointee.ai_family
            if let address = current.pointee.ai_addr {
                let bytes: [UInt8]? =
                    switch family {
                    case AF_INET:
                        address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                            withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
                        }
                    case AF_INET6:
                        address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                            withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                        }
                    default: nil
                    }
                if let bytes, !found.contains(where: { $0.1 == bytes }) {
                    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
                    _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
                    found.append(
                        (String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), bytes))
                }
            }
            entry = current.pointee.ai_next
        }
        return found
    }
}
