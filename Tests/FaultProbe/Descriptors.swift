import Foundation

/// This process's open file descriptors and what each points to (`readlink /proc/self/fd/N`).
struct Descriptors: Equatable, Sendable {
    var targets: [Int32: String]

    /// Lists /proc/self/fd, leaving out the descriptor of the listing itself and any closed while it was listed.
    static func current() -> Descriptors {
        guard let directory = opendir("/proc/self/fd") else { return Descriptors(targets: [:]) }
        defer { closedir(directory) }
        let listing = dirfd(directory)
        var targets: [Int32: String] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd != listing else { continue }
            targets[fd] = linkTarget("/proc/self/fd/\(name)")
        }
        return Descriptors(targets: targets)
    }

    /// Closes the sockets, pipes and files this process inherited from its parent beyond stdin, stdout and stderr
    /// (those the parent opened without close-on-exec, e.g. by one of its parallel suites), so that a copy held here
    /// never keeps a connection of the parent's open. At startup only inherited descriptors are of those kinds: the
    /// runtime's own (Dispatch's event loop) are `anon_inode:` ones.
    static func closeInherited() {
        for (fd, target) in current().targets where fd > 2 && !target.hasPrefix("anon_inode:") { close(fd) }
    }

    /// Descriptors open now that `baseline` did not have (or had pointing elsewhere), in fd order.
    func opened(since baseline: Descriptors) -> [(fd: Int32, target: String)] {
        targets.filter { baseline.targets[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The sockets among the targets ("socket:[inode]").
    var sockets: Set<String> { Set(targets.values.filter { $0.hasPrefix("socket:[") }) }

    /// Polls until `isSettled` holds for the current descriptors or `seconds` pass; returns the last listing.
    static func poll(seconds: Double, until isSettled: @Sendable (Descriptors) -> Bool) async -> Descriptors {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var now = current()
        while !isSettled(now) && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            now = current()
        }
        return now
    }
}

/// Whether `fd` is closed when the process executes another program (FD_CLOEXEC); false for a closed descriptor.
func isCloseOnExec(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFD)
    return flags >= 0 && flags & FD_CLOEXEC != 0
}

/// A readable form of a descriptor's target: for a socket, its kind from /proc/self/net, with the addresses of a
/// TCP socket ("socket:[123] tcp 127.0.0.1:41000 -> 127.0.0.1:8080", "socket:[124] unix").
func describe(_ target: String) -> String {
    guard target.hasPrefix("socket:["), let inode = Int(target.dropFirst(8).dropLast()) else { return target }
    for table in ["tcp", "tcp6"] {
        for line in readWholeFile("/proc/self/net/\(table)").split(separator: "\n").dropFirst() {
            let columns = line.split(separator: " ")
            guard columns.count > 9, Int(columns[9]) == inode else { continue }
            return "\(target) \(table) \(address(columns[1])) -> \(address(columns[2]))"
        }
    }
    // /proc/net/unix: "Num RefCount Protocol Flags Type St Inode [Path]".
    let unix = readWholeFile("/proc/self/net/unix").split(separator: "\n").dropFirst()
    if unix.contains(where: { line in line.split(separator: " ").dropFirst(6).first.flatMap { Int($0) } == inode }) {
        return "\(target) unix"
    }
    return target
}

/// "0100007F:1F90" as "127.0.0.1:8080" (IPv4; an IPv6 address keeps its hex form).
private func address(_ column: Substring) -> String {
    let parts = column.split(separator: ":")
    guard parts.count == 2, let port = Int(parts[1], radix: 16) else { return String(column) }
    guard parts[0].count == 8, let host = UInt32(parts[0], radix: 16) else { return "[\(parts[0])]:\(port)" }
    let octets = (0..<4).map { String((host >> ($0 * 8)) & 0xFF) }  // stored in network order, read little-endian
    return "\(octets.joined(separator: ".")):\(port)"
}

private func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The whole of a /proc file, read until end of file (its size shows as 0, and one read returns at most a page).
private func readWholeFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while case let count = read(fd, &buffer, buffer.count), count > 0 { bytes += buffer[0..<count] }
    return String(decoding: bytes, as: UTF8.self)
}
