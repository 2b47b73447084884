#if canImport(Glibc)
import Glibc
#endif
private import CSandbox
import WICore

/// One decode worker process seen from the service: its socket, and how to send it a request, wait for the reply
/// while watching the job's cancellation, and end it.
///
/// Thread safety: used by one thread at a time.
// @unchecked Sendable: `reaped` is the only mutable state; a worker is used by one decode at a time, handed between
// threads only through `IsolatedCoder`'s lock (taken out of its idle set, put back after).
final class WorkerProcess: @unchecked Sendable {
    let pid: Int32
    private let socket: Int32
    private var reaped = false

    /// How often a waiting decode looks at its job's cancellation.
    static let pollMilliseconds: Int32 = 20

    /// Starts `command` (an executable path and its arguments) with one end of a new socket pair as descriptor 3.
    init(command: [String], environment: [String]) throws(ImageError) {
        guard let executable = command.first else { throw ImageError(.invalidArgument, "the worker command is empty") }
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw ImageError(.outOfMemory, "socketpair failed: \(SharedMemory.describe(errno))")
        }
        var pid: Int32 = 0
        let status = withCStrings(command) { argv in
            withCStrings(environment) { envp in wi_sandbox_spawn(executable, argv, envp, ends[1], &pid) }
        }
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            throw ImageError(
                .invalidArgument, "cannot start the decode worker \(executable): \(SharedMemory.describe(status))")
        }
        self.pid = pid
        socket = ends[0]
    }

    deinit {
        close(socket)
        terminate()
    }

    /// Sends `request` and waits for the reply. Throws `.cancelled` (after killing the worker) when the pool job
    /// running this is cancelled, and `.decoderCrashed` naming what ended the worker when it dies.
    func exchange(_ request: SharedMemory) throws(ImageError) -> SharedMemory {
        let header = withUnsafeBytes(of: UInt64(request.count).littleEndian) { Array($0) }
        let sent = header.withUnsafeBytes { wi_sandbox_send(socket, $0.baseAddress, $0.count, request.fd) }
        guard sent == 0 else { throw ended() }
        var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        while true {
            if WorkerPool.isCancelled {
                terminate()
                throw ImageError(
                    .cancelled, "the request was cancelled while the decode worker ran; the worker was stopped")
            }
            let ready = poll(&entry, 1, Self.pollMilliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready > 0 { break }
        }
        var buffer = [UInt8](repeating: 0, count: DecodeWorker.messageCapacity)
        var fd: Int32 = -1
        let received = buffer.withUnsafeMutableBytes { wi_sandbox_receive(socket, $0.baseAddress, $0.count, &fd) }
        guard received >= 8, fd >= 0 else {
            if fd >= 0 { close(fd) }
            throw ended()
        }
        let length = Int(buffer.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) })
        return try SharedMemory(adopting: fd, count: length)
    }

    /// Kills the worker (if it still runs) and reaps it.
    func terminate() {
        guard !reaped else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
    }

    /// The error for a worker that closed its socket: reaps it and says how it ended.
    private func ended() -> ImageError {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
        reaped = true
        let termination = status & 0x7F
        if termination == 0 {
            return ImageError(.decoderCrashed, "the decode worker exited with status \((status >> 8) & 0xFF)")
        }
        switch termination {
        case SIGSYS:
            return ImageError(.decoderCrashed, "the decoder made a forbidden system call (seccomp) and was stopped")
        case SIGKILL:
            return ImageError(.decoderCrashed, "the decode worker was killed (SIGKILL, the memory limit?)")
        default:
            let name = String(cString: strsignal(termination))
            return ImageError(.decoderCrashed, "the decoder crashed (signal \(termination), \(name))")
        }
    }
}

/// Runs `body` with `strings` as a NULL-terminated C array.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers + [nil])
}

extension ImageError.Code {
    /// A decode worker process ended without answering: it crashed, made a forbidden system call or was killed.
    public static let decoderCrashed = ImageError.Code(rawValue: 1040)
}
