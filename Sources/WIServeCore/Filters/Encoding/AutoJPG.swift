extension ThumborFilters {
    /// `autojpg(true|false)`: accepted and, as in thumbor 7.8, without effect on the answer's format (thumbor sets
    /// its per-request AUTO_PNG_TO_JPG override from it after the format is chosen: measured, an opaque PNG is a PNG
    /// with `autojpg(true)` and AUTO_PNG_TO_JPG off, and a JPEG with `autojpg(false)` and it on;
    /// Tests/Fixtures/serve-negotiation). Lenient: an argument that is not a boolean skips it.
    struct AutoJPG: ThumborFilter {
        static let name = "autojpg"
        var enabled: Bool

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(0...1)
            enabled = arguments.values.isEmpty ? true : try arguments.boolean(0)
        }

        var role: ThumborFilterRole { .encoding }
        func plan(_ plan: inout EncodePlan) {}
        var description: String { "autojpg(\(enabled))" }
    }
}
