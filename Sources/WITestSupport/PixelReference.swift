import Foundation

/// One line of a committed single-frame reference table (`file<TAB>width<TAB>height<TAB>sha256`), as written by
/// Tests/Fixtures/make-pngsuite-reference.sh and make-jpeg-reference.sh from ../shared/tools/refdecode.py.
///
/// Thread safety: a value type; safe to send and share.
public struct PixelReference: Sendable, CustomStringConvertible {
    public var file: String
    public var width: Int
    public var height: Int
    /// SHA-256 of the straight-alpha pixel bytes, row-major, no padding.
    public var sha256: String
    public var description: String { file }

    /// The lines of a table under Tests/Fixtures; lines starting with `#` are comments.
    public static func load(_ table: String) -> [PixelReference] {
        String(decoding: Fixtures.data(table), as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
            .map { line in
                let f = line.split(separator: "\t").map(String.init)
                return PixelReference(file: f[0], width: Int(f[1])!, height: Int(f[2])!, sha256: f[3])
            }
    }
}
