extension ThumborFilters {
    /// `extract_focal()`: accepted and, as in thumbor 7.8, without effect. thumbor's filter is meant to load the
    /// original behind a nested thumbor URL with its crop as a focal region, but 7.8 still loads the URL as written
    /// and the focal region does not reach the crop (measured: the nested path is fetched as it is, and the window
    /// is the alignment's; Tests/Fixtures/serve-extract-focal). Doing what it means would answer other pixels than
    /// thumbor does.
    struct ExtractFocal: ThumborArgumentlessFilter {
        static let name = "extract_focal"

        var role: ThumborFilterRole { .encoding }
        var description: String { "extract_focal" }
    }
}
