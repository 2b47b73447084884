#if canImport(Glibc)
import Glibc
#endif
private import CHiredis

/// The hiredis this plugin is built against.
///
/// Thread safety: read-only; safe from any thread.
public enum HiredisLibrary {
    /// hiredis's version from its header ("0.14.1").
    public static var version: String { "\(HIREDIS_MAJOR).\(HIREDIS_MINOR).\(HIREDIS_PATCH)" }

    /// Whether the library links: formats a command into the wire protocol and checks the bytes.
    public static var formatsCommands: Bool {
        var target: UnsafeMutablePointer<CChar>?
        let command = strdup("PING")
        defer { free(command) }
        var arguments: [UnsafePointer<CChar>?] = [UnsafePointer(command)]
        var lengths = [4]
        let length = redisFormatCommandArgv(&target, 1, &arguments, &lengths)
        defer { free(target) }
        return length == 14 && target.map { String(cString: $0) } == "*1\r\n$4\r\nPING\r\n"
    }
}
