import WICore

extension ThumborFilters {
    /// `format(jpeg|png|webp|avif|gif|heic)`: the answer's format. Lenient: another name leaves the format to the
    /// source and the Accept negotiation, as thumbor's filter sets its format to none.
    struct Format: ThumborFilter {
        static let name = "format"
        /// The format asked; nil: none (thumbor's answer to a name it does not allow).
        var format: ImageFormat?

        /// The formats `format()` accepts, by thumbor's names.
        static let formats: [String: ImageFormat] = [
            "jpeg": .jpeg, "jpg": .jpeg, "png": .png, "webp": .webp, "avif": .avif, "gif": .gif, "heic": .heic,
        ]

        init(_ format: ImageFormat?) { self.format = format }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            format = Self.formats[arguments[0].lowercased()]
            if format == nil, arguments.strict {
                throw arguments.failure("must be one of jpeg, png, webp, avif, gif, heic, got '\(arguments[0])'")
            }
        }

        var role: ThumborFilterRole { .encoding }
        func plan(_ plan: inout EncodePlan) { plan.format = format }
        var description: String { "format(\(format.map { String(reflecting: $0) } ?? "none"))" }
    }
}
