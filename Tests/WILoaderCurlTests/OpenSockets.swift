import Foundation

/// This process's TCP sockets whose remote port is `port`: the loader's connections to one test server.
///
/// Counted per port, not as a total of /proc/self/fd, because the suites run in parallel in one process and each has
/// its own server; a connection the loader never closed shows up here as long as its file descriptor is open.
func openSockets(toPort port: Int) -> Int {
    let inodes = Set(socketInodes(connectedTo: port, table: "/proc/self/net/tcp")
        + socketInodes(connectedTo: port, table: "/proc/self/net/tcp6"))
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return fds.count(where: { fd in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
              target.hasPrefix("socket:["), let inode = Int(target.dropFirst(8).dropLast()) else { return false }
        return inodes.contains(inode)
    })
}

/// The inodes of the sockets in a /proc/net TCP table whose remote address has `port` ("0100007F:1F90" columns).
private func socketInodes(connectedTo port: Int, table: String) -> [Int] {
    return readWholeFile(table).split(separator: "\n").dropFirst().compactMap { line in
        let columns = line.split(separator: " ")
        guard columns.count > 9, let remotePort = columns[2].split(separator: ":").last,
              Int(remotePort, radix: 16) == port else { return nil }
        return Int(columns[9])
    }
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
