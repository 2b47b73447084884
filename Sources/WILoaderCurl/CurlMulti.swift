private import CCurl
private import CCurlShim
import WICore

/// Owns libcurl's multi handle and the share handle (DNS cache, TLS sessions, cookies) its transfers use.
///
/// Connections are not put in the share handle: every easy handle of one multi handle already shares the multi
/// handle's connection cache (keep-alive and HTTP/2 multiplexing happen there).
///
/// Thread safety: only the loader's thread calls its methods, except `wakeup()`, which libcurl documents as
/// callable from any thread.
// @unchecked Sendable: the handles are used by the loader's thread only; `wakeup` is libcurl's thread-safe call.
final class CurlMulti: @unchecked Sendable {
    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer

    /// Loads libcurl on the first call (`.unsupportedFormat` when it cannot be loaded); throws `.outOfMemory` when
    /// libcurl cannot allocate either handle.
    init() throws(ImageError) {
        try CurlLibrary.load()
        guard let multi = ccurl_multi_init() else {
            throw ImageError(.outOfMemory, "libcurl could not allocate a multi handle")
        }
        guard let share = ccurl_share_init() else {
            ccurl_multi_cleanup(multi)
            throw ImageError(.outOfMemory, "libcurl could not allocate a share handle")
        }
        self.multi = multi
        self.share = share
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
        for data in [CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION, CURL_LOCK_DATA_COOKIE] {
            _ = ccurl_share_setopt_lock_data(share, data)
        }
    }

    deinit {
        ccurl_multi_cleanup(multi)
        ccurl_share_cleanup(share)
    }

    /// The share handle, for `CURLOPT_SHARE`.
    var shareHandle: UnsafeMutableRawPointer { share }

    func add(_ easy: CurlEasy) -> Bool { easy.withHandle { ccurl_multi_add_handle(multi, $0) } == CURLM_OK }

    func remove(_ easy: CurlEasy) { _ = easy.withHandle { ccurl_multi_remove_handle(multi, $0) } }

    /// Runs every transfer as far as it can go without blocking.
    func perform() {
        var running: Int32 = 0
        _ = ccurl_multi_perform(multi, &running)
    }

    /// Finished transfers: each one's private pointer (see `CurlEasy.privatePointer`) and libcurl's result.
    func finished() -> [(UnsafeMutableRawPointer, CurlResult)] {
        var done: [(UnsafeMutableRawPointer, CurlResult)] = []
        var left: Int32 = 0
        while let message = ccurl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var pointer: UnsafeMutableRawPointer?
            _ = ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &pointer)
            if let pointer { done.append((pointer, CurlResult(rawValue: ccurl_msg_result(message).rawValue))) }
        }
        return done
    }

    /// Waits until a socket is ready, `wakeup()` is called, or `milliseconds` pass.
    func poll(milliseconds: Int32) {
        var ready: Int32 = 0
        _ = ccurl_multi_poll(multi, nil, 0, milliseconds, &ready)
    }

    /// Interrupts `poll` from any thread.
    func wakeup() { _ = ccurl_multi_wakeup(multi) }
}
