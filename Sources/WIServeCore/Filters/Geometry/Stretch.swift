extension ThumborFilters {
    /// `stretch()`: without `fit-in`, resize to the requested size without cropping to its aspect ratio
    /// (`ThumborGeometry`).
    struct Stretch: ThumborArgumentlessFilter {
        static let name = "stretch"

        var role: ThumborFilterRole { .geometry }
        var description: String { "stretch" }
    }
}
