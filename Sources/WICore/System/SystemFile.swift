#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX file helpers the plugins share, so that none needs Foundation's `FileHandle` (not in
/// FoundationEssentials).
package enum SystemFile {
    /// Reads the file at `path` until its end or until `limit` bytes were read (a procfs file reports size 0, so
    /// this never trusts the size). Fails with the `errno` of the failing open or read.
    package static func contents(atPath path: String, limit: Int = .max) -> Result<Data, SystemFileError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(SystemFileError(errno: errno)) }
        defer { close(descriptor) }
        var data = Data()
        let chunk = 64 * 1024
        var buffer = [UInt8](repeating: 0, count: chunk)
        while data.count < limit {
            let wanted = min(chunk, limit - data.count)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(SystemFileError(errno: errno))
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return .success(data)
    }

    /// The home directory: `$HOME`, else the password database's entry of the current user, else "/".
    package static var homeDirectory: String {
        if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir { return String(cString: directory) }
        return "/"
    }
}

/// A failed POSIX call: its `errno`.
package struct SystemFileError: Error, Sendable {
    package let errno: Int32
    /// `strerror` of the code.
    package var message: String { String(cString: strerror(errno)) }
}
