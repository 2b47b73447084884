#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
import WICore
internal import CLCMSShim

/// One lcms transform to sRGB, freed with its context when the last image using it is done.
// @unchecked Sendable: immutable after init; lcms runs a transform made with cmsFLAGS_NOCACHE from several threads
// at once (it keeps no per-transform pixel cache).
final class LittleCMSTransform: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { wi_lcms_transform_destroy(pointer) }
}

/// The transforms a `LittleCMSConverter` made last, least recently used first out.
///
/// Thread safety: the entries are behind a `Mutex`; transforms are made outside it (two threads meeting a new profile
/// at once may both make it; the second replaces the first).
final class LittleCMSTransforms: Sendable {
    /// Where a transform starts: an ICC profile's bytes, or a colour description.
    enum Source: Hashable, Sendable {
        case profile(Data)
        case description(ImageMetadata.ColorDescription)
    }

    struct Key: Hashable, Sendable {
        var source: Source
        var layout: UInt32
        var out16: Bool
    }

    private let capacity: Int
    private let entries = Mutex<[(key: Key, transform: LittleCMSTransform)]>([])

    init(capacity: Int) { self.capacity = capacity }

    /// How many transforms are kept (for tests).
    var count: Int { entries.withLock { $0.count } }

    /// The transform for `key`, made now when it is not kept; nil when lcms cannot make one (not kept either: a
    /// bad profile costs its parse each time, as it would without the cache).
    func transform(for key: Key) throws(ImageError) -> LittleCMSTransform? {
        let kept = entries.withLock { entries -> LittleCMSTransform? in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.transform
        }
        if let kept { return kept }
        guard let made = try Self.make(key) else { return nil }
        guard capacity > 0 else { return made }
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, made))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return made
    }

    private static func make(_ key: Key) throws(ImageError) -> LittleCMSTransform? {
        var status = WI_LCMS_OK
        var message = [CChar](repeating: 0, count: 256)
        let count = message.count
        let layout = wi_lcms_layout(rawValue: key.layout)
        let out16: Int32 = key.out16 ? 1 : 0
        let pointer: OpaquePointer?
        switch key.source {
        case .profile(let profile):
            pointer = profile.withUnsafeBytes { icc in
                wi_lcms_transform_create(
                    icc.baseAddress, icc.count, nil, layout, out16, &status, &message, count)
            }
        case .description(let description):
            guard var space = LittleCMSConverter.space(for: description) else { return nil }
            pointer = wi_lcms_transform_create(nil, 0, &space, layout, out16, &status, &message, count)
        }
        if status == WI_LCMS_OUT_OF_MEMORY { throw ImageError(.outOfMemory, "Little CMS: out of memory") }
        return pointer.map(LittleCMSTransform.init)
    }
}
