extension ThumborFilters {
    /// `quality(N)`, N in 0...100: the encoder's quality (thumbor's default is 80). Lenient: above 100 is 100, as
    /// libjpeg clamps thumbor's value.
    struct Quality: ThumborFilter {
        static let name = "quality"
        var value: Int

        init(_ value: Int) { self.value = value }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            value = try arguments.integer(0, 0...100, clampedWhenLenient: arguments.isUnsigned(0))
        }

        var role: ThumborFilterRole { .encoding }
        func plan(_ plan: inout EncodePlan) { plan.quality = value }
        var description: String { "quality(\(value))" }
    }
}
