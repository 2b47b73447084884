extension ThumborFilters {
    /// `max_age(N)`: `Cache-Control: max-age=N,public` and its `Expires` on this answer instead of the server's
    /// `--max-age` (0: neither header).
    /// Lenient: above `maximum` is `maximum`.
    struct MaxAge: ThumborFilter {
        static let name = "max_age"
        /// The largest `max_age()`: the server's own `maxAge` limit (ten years).
        static let maximum = 10 * 365 * 86_400
        var seconds: Int

        init(_ seconds: Int) { self.seconds = seconds }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            seconds = try arguments.integer(0, 0...Self.maximum, clampedWhenLenient: arguments.isUnsigned(0))
        }

        var role: ThumborFilterRole { .answer }
        var description: String { "maxAge(\(seconds))" }
    }
}
