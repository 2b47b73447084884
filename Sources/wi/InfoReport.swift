#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// One line of `wi info` output; its JSON keys are a contract other tools parse (DESIGN.md).
struct InfoReport {
    var file: String
    var format: String?
    var width: Int?
    var height: Int?
    var frames: Int?
    var loopCount: Int?
    var durationsMilliseconds: [Int]?
    var hasAlpha: Bool?
    var error: String?

    init(file: String) { self.file = file }

    mutating func describe(_ image: Image) {
        format = image.format.identifier
        width = image.width
        height = image.height
        frames = image.frameCount
        loopCount = image.loopCount
        durationsMilliseconds = image.durations.map { Int(($0 * 1000).rounded()) }
        hasAlpha = image.hasAlpha
    }

    var jsonLine: String {
        let fields: [(String, JSONValue)] = [
            ("file", .string(file)), ("format", format.map(JSONValue.string) ?? .null),
            ("width", width.map(JSONValue.int) ?? .null), ("height", height.map(JSONValue.int) ?? .null),
            ("frames", frames.map(JSONValue.int) ?? .null), ("loop_count", loopCount.map(JSONValue.int) ?? .null),
            ("durations_ms", durationsMilliseconds.map { .array($0.map(JSONValue.int)) } ?? .null),
            ("has_alpha", hasAlpha.map(JSONValue.bool) ?? .null), ("error", error.map(JSONValue.string) ?? .null),
        ]
        return JSONValue.object(fields).serialized
    }

    var textLine: String {
        guard error == nil, let format, let width, let height, let frames else {
            return "\(file)\tERROR\t\(error ?? "unknown")"
        }
        var line = "\(file)\t\(format)\t\(width)x\(height)"
        if frames > 1 { line += "\t\(frames) frames, loop \(loopCount ?? 0)" }
        if hasAlpha == true { line += "\talpha" }
        return line
    }
}

/// A JSON value written with keys in a fixed order (JSONSerialization does not keep order).
enum JSONValue {
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    var serialized: String {
        switch self {
        case .string(let text): return text.jsonQuoted
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
        case .object(let fields):
            return "{" + fields.map { $0.0.jsonQuoted + ":" + $0.1.serialized }.joined(separator: ",") + "}"
        }
    }
}
