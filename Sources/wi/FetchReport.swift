#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// One line of `wi fetch` / `wi prefetch` output; its JSON keys are a contract other tools parse (DESIGN.md):
/// `{"url","cache_type":"none|memory|disk","width","height","frames","bytes","ms","error"}`, plus `"revalidated"`
/// (true after a 304) with `wi fetch --refresh`.
struct FetchReport {
    var url: String
    var cacheType: ImageCacheType?
    var width: Int?
    var height: Int?
    var frames: Int?
    var bytes: Int?
    var milliseconds: Int
    var error: String?
    /// With `--refresh`: whether the server confirmed the cached image (304).
    var revalidated: Bool?

    init(url: String, result: Result<ImageResult, ImageError>, milliseconds: Int, reportsRevalidation: Bool = false) {
        self.url = url
        self.milliseconds = milliseconds
        if reportsRevalidation { revalidated = false }
        switch result {
        case .success(let value):
            if reportsRevalidation { revalidated = value.httpCacheOutcome == .revalidated }
            cacheType = value.cacheType
            width = value.image.width
            height = value.image.height
            frames = value.image.frameCount
            bytes = value.data?.count
        case .failure(let failure):
            error = describe(failure)
        }
    }

    var jsonLine: String {
        var fields: [(String, JSONValue)] = [
            ("url", .string(url)),
            ("cache_type", cacheType.map { .string($0 == .all ? "memory" : $0.description) } ?? .null),
            ("width", width.map(JSONValue.int) ?? .null), ("height", height.map(JSONValue.int) ?? .null),
            ("frames", frames.map(JSONValue.int) ?? .null), ("bytes", bytes.map(JSONValue.int) ?? .null),
            ("ms", .int(milliseconds)), ("error", error.map(JSONValue.string) ?? .null),
        ]
        if let revalidated { fields.append(("revalidated", .bool(revalidated))) }
        return JSONValue.object(fields).serialized
    }

    /// A table row: url, source, size, frames, bytes, time.
    var tableRow: [String] {
        guard error == nil else { return [url, "ERROR", error ?? "", "", "", "\(milliseconds) ms"] }
        let source = cacheType.map { $0 == .none ? "loader" : $0.description } ?? "?"
        return [
            url, source, "\(width ?? 0)x\(height ?? 0)", "\(frames ?? 0)", bytes.map(String.init) ?? "-",
            "\(milliseconds) ms",
        ]
    }

    static let tableHeader = ["URL", "FROM", "SIZE", "FRAMES", "BYTES", "TIME"]

    /// Rows as a table with aligned columns.
    static func table(_ rows: [[String]]) -> String {
        let all = [tableHeader] + rows
        let widths = (0..<tableHeader.count).map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { $0.element + String(repeating: " ", count: widths[$0.offset] - $0.element.count) }
                .joined(separator: "  ").trimmingSpacesAndTabs()
        }.joined(separator: "\n")
    }
}

/// A URL from a command-line argument: absolute URLs as they are, anything else as a file path.
func commandLineURL(_ argument: String) -> URL? {
    if let url = URL(string: argument), let scheme = url.scheme, scheme.count > 1 { return url }
    let path = argument.expandingTilde
    return URL(fileURLWithPath: path).standardizedFileURL
}
