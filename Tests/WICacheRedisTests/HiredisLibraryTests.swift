import Foundation
import Testing
import WITestSupport
@testable import WICacheRedis

@Suite struct HiredisLibraryTests {
    @Test func linksAndFormatsACommand() {
        #expect(HiredisLibrary.version == "0.14.1")
        #expect(HiredisLibrary.formatsCommands)
    }

    /// hiredis 0.14 opens its socket without close-on-exec; the connection sets it, so a program the application
    /// starts does not inherit the connection.
    @Test func connectionsAreCloseOnExec() throws {
        let server = try RedisServer()
        let connection = try RedisConnection(server.configuration())
        let flags = fcntl(connection.fileDescriptor, F_GETFD)
        #expect(flags >= 0 && flags & FD_CLOEXEC == FD_CLOEXEC)
        #expect(try connection.command([Data("PING".utf8)]) == .status("PONG"))
    }
}
