extension ThumborFilters {
    /// `max_bytes(N)`: a JPEG or WebP answer re-encoded at lower qualities until it fits N bytes (see `EncodePlan`).
    /// Lenient: above 1 GiB is 1 GiB (no answer is that large).
    struct MaxBytes: ThumborFilter {
        static let name = "max_bytes"
        var bytes: Int

        init(_ bytes: Int) { self.bytes = bytes }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            bytes = try arguments.integer(
                0, 1...(1 << 30), clampedWhenLenient: arguments.isUnsigned(0) && Int(arguments[0]) != 0)
        }

        var role: ThumborFilterRole { .encoding }
        func plan(_ plan: inout EncodePlan) { plan.maxBytes = bytes }
        var description: String { "maxBytes(\(bytes))" }
    }

}
