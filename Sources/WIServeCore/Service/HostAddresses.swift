#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The addresses `--allow-host` names, as the curl loader's address policy writes them (`inet_ntop`): a literal
/// as it is, a name through the resolver once at start.
enum HostAddresses {
    /// Every address of `host` (brackets of an IPv6 literal removed); empty when it does not resolve.
    static func resolve(_ host: String) -> Set<String> {
        var name = host
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var addresses = Set<String>()
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let text = presentation(entry.pointee) { addresses.insert(text) }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }

    private static func presentation(_ info: addrinfo) -> String? {
        guard let address = info.ai_addr else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let written: UnsafePointer<CChar>? =
            switch info.ai_family {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { socket in
                    var raw = socket.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { socket in
                    var raw = socket.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
                }
            default: nil
            }
        guard written != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
