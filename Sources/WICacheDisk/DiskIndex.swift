#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The in-memory picture of one cache directory: file name -> size and date, with the running totals, so a miss
/// and `totalSize` cost no system call.
struct DiskIndex: Sendable {
    struct Entry: Sendable {
        /// The size as counted by the configuration's `sizeAccounting`.
        var size: Int64
        /// The date that ages the entry (access or modification, per the configuration).
        var date: Date
    }

    private(set) var entries: [EntryName: Entry] = [:]
    private(set) var totalSize: Int64 = 0
    /// Entry names taken by something that is not a regular file: a read looks on disk (and reports it).
    var obstructed: Set<EntryName> = []

    /// An empty index with room for `capacity` entries.
    init(capacity: Int = 0) {
        entries.reserveCapacity(capacity)
    }

    var count: Int { entries.count }

    subscript(name: EntryName) -> Entry? { entries[name] }

    mutating func set(_ name: EntryName, _ entry: Entry) {
        if let old = entries.updateValue(entry, forKey: name) { totalSize -= old.size }
        totalSize += entry.size
    }

    mutating func remove(_ name: EntryName) {
        if let old = entries.removeValue(forKey: name) { totalSize -= old.size }
    }
}
