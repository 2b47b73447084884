#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WICore

/// Partial bodies of cancelled transfers, kept so a later load of the same request (equal `ImageLoading.Identity`:
/// a body fetched with one caller's credentials never resumes another's) continues where it stopped (Range +
/// If-Range), within a byte budget; the oldest entries go first.
///
/// Thread safety: confined to the loader's thread.
struct ResumeStore {
    struct Entry {
        var data: Data
        /// The strong ETag or the Last-Modified date, sent as If-Range.
        var validator: String
    }

    let budget: Int64
    private var entries: [ImageLoading.Identity: Entry] = [:]
    private var order: [ImageLoading.Identity] = []
    private var bytes: Int64 = 0

    init(budget: Int64) { self.budget = budget }

    /// Keeps the partial body of a cancelled transfer when the server said it can resume: a strong ETag or a
    /// Last-Modified date, `Accept-Ranges: bytes`, no content coding, and the body incomplete.
    mutating func keep(_ body: Data, of head: ImageLoading.ResponseHead, key: ImageLoading.Identity) {
        let h = head.headers
        guard budget > 0, !body.isEmpty, Int64(body.count) <= budget, head.statusCode == 200 || head.statusCode == 206,
            h["accept-ranges"]?.lowercased().contains("bytes") == true,
            (h["content-encoding"] ?? "identity").lowercased() == "identity",
            head.expectedContentLength < 0 || Int64(body.count) < head.expectedContentLength
        else { return }
        let etag = h["etag"].flatMap { $0.hasPrefix("W/") ? nil : $0 }
        guard let validator = etag ?? h["last-modified"] else { return }
        remove(key)
        while bytes + Int64(body.count) > budget, let oldest = order.first { remove(oldest) }
        entries[key] = Entry(data: body, validator: validator)
        order.append(key)
        bytes += Int64(body.count)
    }

    /// Takes the entry for `key` out of the store.
    mutating func take(_ key: ImageLoading.Identity) -> Entry? {
        let entry = entries[key]
        remove(key)
        return entry
    }

    private mutating func remove(_ key: ImageLoading.Identity) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        bytes -= Int64(entry.data.count)
        order.removeAll { $0 == key }
    }
}
