private import CCurl
private import CCurlShim

/// The request header lines of a transfer as one libcurl list (`curl_slist`), shared by every easy handle that
/// sends the same lines and freed when the last one lets go: a loader whose requests add no headers of their own
/// builds the list once, not two allocations per line per transfer.
///
/// libcurl reads the list while a transfer runs and never copies it, so each handle holds the list it was given.
///
/// Thread safety: immutable after init; used on the loader's thread.
final class CurlHeaderList {
    /// The lines, `Name: value`, in the order they are sent.
    let lines: [String]
    private let list: UnsafeMutablePointer<curl_slist>?
    /// False when libcurl ran out of memory building the list: the transfer must not run without its headers.
    let isComplete: Bool

    init(_ lines: [String]) {
        self.lines = lines
        var list: UnsafeMutablePointer<curl_slist>?
        var complete = true
        for line in lines {
            guard let longer = ccurl_slist_append(list, line) else {
                complete = false
                break
            }
            list = longer
        }
        self.list = list
        isComplete = complete
    }

    /// The lines of `headers`, sorted by name.
    convenience init(_ headers: [String: String]) {
        self.init(headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })
    }

    deinit { ccurl_slist_free_all(list) }

    /// The list for `CURLOPT_HTTPHEADER` (nil when there are no lines).
    var pointer: UnsafeMutableRawPointer? { list.map { UnsafeMutableRawPointer($0) } }
}
