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

    /// Sandboxes this process (killed with its parent, address space limited to `memoryLimit` bytes, the libraries
    /// of the coders for its formats opened (`IsolatedCoder.formatsVariable`), files as `fileAccess` says: with `.none` every later open ends the process; with `.fonts`
    /// fontconfig's caches are brought up to date and reads are confined to the system's folders with Landlock
    /// where the kernel has it; then the seccomp filter), then answers requests on `socket` with `coders` until the service closes it;
    /// returns the exit status. `memoryLimit` and `fileAccess` nil: what `IsolatedCoder` put in the environment
    /// (`IsolatedCoder.memoryLimitVariable`, `IsolatedCoder.fileAccessVariable`; no limit and `.none` without).
    ///
    /// Thread safety: call once, from the process's main thread, before starting any other thread.
    public static func run(
        coders: ImageCodersManager, memoryLimit: Int? = nil,
        fileAccess: IsolatedCoder.FileAccess? = nil, socket: Int32 = socketDescriptor
    ) -> Int32 {
        let environment = currentEnvironment()
        let memoryLimit = memoryLimit ?? environment[IsolatedCoder.memoryLimitVariable].flatMap { Int($0) } ?? 0
        let files: IsolatedCoder.FileAccess
        if let fileAccess {
            files = fileAccess
        } else if let text = environment[IsolatedCoder.fileAccessVariable] {
            guard let named = IsolatedCoder.FileAccess(rawValue: text) else { return fail("no file access \(text)") }
            files = named
        } else {
            files = .none
        }
        guard wi_sandbox_die_with_parent() == 0 else { return fail("the service is gone") }
        if memoryLimit > 0 {
            let status = wi_sandbox_limit_memory(UInt64(memoryLimit))
            guard status == 0 else { return fail("cannot limit the address space: \(SharedMemory.describe(-status))") }
        }
        let formats = environment[IsolatedCoder.formatsVariable].map { Set($0.split(separator: ",").map(String.init)) }
        for case let coder as any LibraryOpeningCoder in coders.coders
        where formats.map({ !$0.isDisjoint(with: coder.decodingFormats.map(\.identifier)) }) ?? true {
            coder.openLibraries()
        }
        (coders.colorConverter as? any LibraryOpeningConverter)?.openLibraries()
        switch files {
        case .none:
            break
        case .fonts:
            // Fontconfig rewrites the cache of a font folder that changed since it was written: now, not in the
            // sandbox (where the open for writing would end the worker). Without fontconfig, text has no fonts.
            _ = wi_sandbox_prepare_fonts()
            let confined = readablePaths(environment: environment).withCStrings {
                wi_sandbox_confine_reads($0, Int32($1))
            }
            guard confined >= 0 else { return fail("cannot confine file reads: \(SharedMemory.describe(-confined))") }
        }
        let status = wi_sandbox_install(files == .none ? 1 : 0)
        guard status == 0 else { return fail("cannot install the seccomp filter: \(SharedMemory.describe(-status))") }
        var buffer = [UInt8](repeating: 0, count: messageCapacity)
        while true {
            var fd: Int32 = -1
            let received = buffer.withUnsafeMutableBytes { wi_sandbox_receive(socket, $0.baseAddress, $0.count, &fd) }
            if received == 0 { return 0 }  // the service closed the socket
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
                guard let failure = try? WorkerMessage.reply(error) else {
                    return fail("cannot reply: \(error.message)")
                }
                reply = failure
            }
            let header = withUnsafeBytes(of: UInt64(reply.count).littleEndian) { Array($0) }
            let sent = header.withUnsafeBytes { wi_sandbox_send(socket, $0.baseAddress, $0.count, reply.fd) }
            guard sent == 0 else { return sent == -EPIPE ? 0 : fail("cannot reply: \(SharedMemory.describe(-sent))") }
        }
    }

    /// The only places a worker may read (Landlock): the system's libraries and data under /usr (codec libraries
    /// and their plugins, fonts, icon themes), fontconfig's configuration and caches, the loader's cache, the CPU
    /// list libraries size their threads by, and the folders `FONTCONFIG_FILE` / `FONTCONFIG_PATH` name.
    static func readablePaths(environment: [String: String] = currentEnvironment()) -> [String] {
        var paths = [
            "/usr", "/etc/fonts", "/etc/ld.so.cache", "/var/cache/fontconfig", "/sys/devices/system/cpu",
            "/proc/self",
        ]
        if let file = environment["FONTCONFIG_FILE"], let slash = file.lastIndex(of: "/") {
            paths.append(String(file[..<slash]))
        }
        if let folders = environment["FONTCONFIG_PATH"] { paths += folders.split(separator: ":").map(String.init) }
        if let cache = environment["XDG_CACHE_HOME"] { paths.append(cache + "/fontconfig") }
        if let home = environment["HOME"] { paths.append(home + "/.cache/fontconfig") }
        return paths
    }

    /// This process's environment as a dictionary (no Foundation).
    static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
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
        return 70  // EX_SOFTWARE
    }
}

extension Array where Element == String {
    /// Runs `body` with these strings as a C array and its count.
    fileprivate func withCStrings<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>, Int) -> R) -> R {
        let copies = map { UnsafePointer(strdup($0)) }
        defer { for copy in copies { free(UnsafeMutablePointer(mutating: copy)) } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!, count) }
    }
}
