extension ThumborFilters {
    /// `strip_exif()`: leave EXIF out of the output.
    struct StripEXIF: ThumborArgumentlessFilter {
        static let name = "strip_exif"

        var role: ThumborFilterRole { .encoding }
        func plan(_ plan: inout EncodePlan) { plan.stripEXIF = true }
        var description: String { "stripEXIF" }
    }

    /// `strip_icc()`: leave the ICC profile out of the output.
    struct StripICC: ThumborArgumentlessFilter {
        static let name = "strip_icc"

        var role: ThumborFilterRole { .encoding }
        func plan(_ plan: inout EncodePlan) { plan.stripICC = true }
        var description: String { "stripICC" }
    }
}
