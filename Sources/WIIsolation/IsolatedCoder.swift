#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore

/// A coder that decodes in sandboxed worker processes (`DecodeWorker`), for the formats whose C libraries cannot
/// be interrupted or should not be trusted with the service's process: a decode past its request's deadline, a
/// crash, a forbidden system call or an allocation past the worker's memory limit costs that request
/// (`.cancelled`, `.decoderCrashed`, `.outOfMemory`) and one worker, which is replaced; never the service.
///
/// Register it ahead of the ordinary coders: it answers `canDecode` only for `formats` (nil: everything `coders`
/// decodes), and decodes with the workers' own coders. Source bytes go to the worker and pixels come back through
/// shared memory (memfd); with a thumbnail size the worker decodes at that size, so only the thumbnail crosses.
///
/// ```swift
/// let isolated = try IsolatedCoder(configuration: .init(command: ["/usr/local/bin/wi", "decode-worker"]),
///                                  coders: WebImage.makeCoders())
/// let coders = ImageCodersManager(coders: WebImage.makeCoders().coders.reversed() + [isolated])
/// ```
///
/// Thread safety: `decode` may run on any number of threads at once (one worker each); `shutdown()` ends every
/// worker.
public final class IsolatedCoder: ImageCoder, ShutdownCapable {
    /// Where the workers come from and what they may use.
    public struct Configuration: Sendable {
        /// The worker's executable and arguments (`wi decode-worker`).
        public var command: [String]
        /// The formats decoded in workers; nil for every format.
        public var formats: Set<ImageFormat>?
        /// Each worker's address-space limit in bytes (RLIMIT_AS; default 2 GiB).
        public var memoryLimit: Int
        /// Workers started at once and kept idle (default 1); more start when decodes overlap.
        public var prestarted: Int
        /// The files a worker may open.
        public var fileAccess: FileAccess
        /// Variables added to the workers' environment (which is otherwise this process's), e.g. `FONTCONFIG_FILE`.
        public var environment: [String: String] = [:]

        /// `fileAccess` nil: `.fonts` when `formats` includes SVG or PDF (or is nil), `.none` otherwise.
        public init(
            command: [String], formats: Set<ImageFormat>? = nil, memoryLimit: Int = 2 << 30, prestarted: Int = 1,
            fileAccess: FileAccess? = nil
        ) {
            self.command = command
            self.formats = formats
            self.memoryLimit = memoryLimit
            self.prestarted = prestarted
            self.fileAccess =
                fileAccess ?? (formats.map { $0.isDisjoint(with: FileAccess.textFormats) } == true ? .none : .fonts)
        }
    }

    /// The files a decode worker may open once it is sandboxed.
    public enum FileAccess: String, Sendable {
        /// None: opening any file ends the worker (its libraries were opened before the sandbox). For the formats
        /// that draw no text: HEIC, HEIF, AVIF and the raster formats.
        case none
        /// Reading only, and only under the system's folders (fonts, fontconfig, libraries; Landlock): the text of
        /// SVG and PDF documents needs the fonts fontconfig finds. Opening for writing ends the worker.
        case fonts

        /// The formats whose decoders open fonts while they draw.
        public static let textFormats: Set<ImageFormat> = [.svg, .pdf]
    }

    /// SVG, PDF, HEIC, HEIF and AVIF: the formats whose decoders (librsvg, poppler, libheif) the service cannot
    /// stop between rows.
    public static let uncancellableFormats: Set<ImageFormat> = [.svg, .pdf, .heic, .heif, .avif]

    public let configuration: Configuration
    private let coders: ImageCodersManager
    private let environment: [String]
    private let state = Mutex<(idle: [WorkerProcess], isShutDown: Bool, started: Int)>(([], false, 0))

    /// Starts `configuration.prestarted` workers; throws `.invalidArgument` when the command cannot be started.
    public init(configuration: Configuration, coders: ImageCodersManager) throws(ImageError) {
        self.configuration = configuration
        self.coders = coders
        var environment = ProcessInfo.processInfo.environment.merging(configuration.environment) { $1 }
        environment["SWIFT_BACKTRACE"] = "enable=no"  // a crash ends the worker at once: no backtracer to exec
        environment[Self.memoryLimitVariable] = String(configuration.memoryLimit)
        environment[Self.fileAccessVariable] = configuration.fileAccess.rawValue
        environment[Self.formatsVariable] = configuration.formats.map {
            $0.map(\.identifier).sorted().joined(separator: ",")
        }
        self.environment = environment.map { "\($0.key)=\($0.value)" }
        for _ in 0..<max(0, configuration.prestarted) { give(try start()) }
    }

    /// The environment variable that tells a worker its memory limit.
    public static let memoryLimitVariable = "WI_DECODE_WORKER_MEMORY"
    /// The environment variable that tells a worker its `FileAccess`.
    public static let fileAccessVariable = "WI_DECODE_WORKER_FILES"
    /// The environment variable that tells a worker which formats it decodes (identifiers, comma-separated;
    /// absent: every format), so it opens only those coders' libraries before its sandbox.
    public static let formatsVariable = "WI_DECODE_WORKER_FORMATS"

    public var decodingFormats: [ImageFormat] {
        coders.decodingFormats.filter { configuration.formats?.contains($0) ?? true }
    }

    public func canDecode(_ data: Data) -> Bool {
        if let formats = configuration.formats, !formats.contains(ImageFormat.detect(data)) { return false }
        return coders.canDecode(data)
    }

    /// Decodes `data` in a worker. Errors: the worker coders' own, `.cancelled` when the pool job is cancelled
    /// (the worker is killed), `.decoderCrashed` when the worker dies, `.shutDown` after `shutdown()`.
    public func decode(_ data: Data, options: DecodeOptions) throws(ImageError) -> Image {
        try options.validate()
        let request = try WorkerMessage.request(data, options: options)
        let worker = try take()
        let reply: SharedMemory
        do throws(ImageError) {
            reply = try worker.exchange(request)
        } catch {
            worker.terminate()
            replace()
            throw error
        }
        give(worker)
        return try WorkerMessage.readReply(reply, options: options)
    }

    /// Ends every idle worker; busy ones end when their decode returns.
    public func shutdown() async {
        let idle = state.withLock { s -> [WorkerProcess] in
            s.isShutDown = true
            defer { s.idle = [] }
            return s.idle
        }
        for worker in idle { worker.terminate() }
    }

    /// Workers started so far (replacements included).
    public var startedCount: Int { state.withLock { $0.started } }

    private func start() throws(ImageError) -> WorkerProcess {
        let worker = try WorkerProcess(command: configuration.command, environment: environment)
        state.withLock { $0.started += 1 }
        return worker
    }

    /// An idle worker, or a new one.
    private func take() throws(ImageError) -> WorkerProcess {
        let (isShutDown, idle) = state.withLock { s -> (Bool, WorkerProcess?) in
            s.isShutDown ? (true, nil) : (false, s.idle.popLast())
        }
        guard !isShutDown else { throw ImageError(.shutDown, "the isolated coder was shut down") }
        if let idle { return idle }
        return try start()
    }

    /// Puts `worker` back in the idle set (ends it after a shutdown).
    private func give(_ worker: WorkerProcess) {
        let kept = state.withLock { s -> Bool in
            guard !s.isShutDown else { return false }
            s.idle.append(worker)
            return true
        }
        if !kept { worker.terminate() }
    }

    /// Starts a worker in place of one that was ended, so the next decode finds one ready.
    private func replace() {
        guard !state.withLock({ $0.isShutDown }), let worker = try? start() else { return }
        give(worker)
    }
}
