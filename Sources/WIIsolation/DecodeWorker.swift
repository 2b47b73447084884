#if canImport(Glibc)
import Glibc
#endif
private import CSandbox
import WICore

/// The decode worker's side: a process that decodes what the service sends it, one request at a time, inside a
/// seccomp sandbox and an address-space limit, and answers with the pixels in shared memory.
///
/// `wi decode-worker` runs it; a test runs its own build with test-only coders. The process ends when the service
/// closes the socket; a crash, a forbidden system call (SIGSYS) or the memory limit end it too, and the service
/// starts another.
public enum DecodeWorker {
    /// The socket descriptor a worker is started with.
    public static let socketDescriptor: Int32 = 3

    /// The largest request message (a description and the length of the shared memory).
    static let messageCapacity = 64

    /// Sandboxes this process (killed with its parent, address space limited to `memoryLimit` bytes, then the
    /// seccomp filter), then answers requests on `socket` with `coders` until the service closes it; returns the exit status.
    ///
    /// Thread safety: call once, from the process's main thread, before starting any other thread.
    public static func run(coders: ImageCodersManager, memoryLimit: Int, socket: Int32 = socketDescriptor) -> Int32 {
        guard wi_sandbox_die_with_parent() == 0 else { return fail("the service is gone") }
        if memoryLimit > 0 {
            let status = wi_sandbox_limit_memory(UInt64(memoryLimit))
            guard status == 0 else { return fail("cannot limit the address space: \(SharedMemory.describe(-status))") }
        }
        let status = wi_sandbox_install()
        guard status == 0 else { return fail("cannot install the seccomp filter: \(SharedMemory.describe(-status))") }
        var buffer = [UInt8](repeating: 0, count: messageCapacity)
        while true {
            var fd: Int32 = -1
            let received = buffer.withUnsafeMutableBytes { wi_sandbox_receive(socket, $0.baseAddress, $0.count, &fd) }
            if received == 0 { return 0 }   // the service closed the socket
            guard received >= 8, fd >= 0 else {
                if fd >= 0 { close(fd) }
                return fail("a request without its shared memory")
            }
            let length = Int(buffer.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) })
            let reply: SharedMemory
            do throws(ImageError) {
                let request = try SharedMemory(adopting: fd, count: length)
                reply = try answer(request, coders: coders)
            } catch {
                guard let failure = try? WorkerMessage.reply(error) else { return fail("cannot reply: \(error.message)") }
                reply = failure
            }
            let header = withUnsafeBytes(of: UInt64(reply.count).littleEndian) { Array($0) }
            let sent = header.withUnsafeBytes { wi_sandbox_send(socket, $0.baseAddress, $0.count, reply.fd) }
            guard sent == 0 else { return sent == -EPIPE ? 0 : fail("cannot reply: \(SharedMemory.describe(-sent))") }
        }
    }

    /// Decodes one request; the reply carries the image or the decoder's error.
    private static func answer(_ request: SharedMemory, coders: ImageCodersManager) throws(ImageError) -> SharedMemory {
        let (data, options) = try WorkerMessage.readRequest(request)
        do throws(ImageError) {
            return try WorkerMessage.reply(try coders.decode(data, options: options))
        } catch {
            return try WorkerMessage.reply(error)
        }
    }

    private static func fail(_ reason: String) -> Int32 {
        let line = Array("wi decode-worker: \(reason)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        return 70   // EX_SOFTWARE
    }
}
