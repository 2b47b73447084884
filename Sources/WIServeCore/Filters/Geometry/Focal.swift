extension ThumborFilters {
    /// `focal(AxB:CxD)`: a region the fill crop centres on instead of the alignment (several: their centre of
    /// mass, weighted by area; `ThumborGeometry`); an empty one is ignored.
    struct Focal: ThumborFilter {
        static let name = "focal"
        var box: ThumborRequest.CropBox

        init(_ box: ThumborRequest.CropBox) { self.box = box }

        init(_ arguments: ThumborFilterArguments) throws(ServeError) {
            try arguments.count(1...1)
            guard let box = ThumborRequest.cropBox(Substring(arguments[0])) else {
                throw arguments.failure("takes a rectangle AxB:CxD, got '\(arguments[0])'")
            }
            self.box = box
        }

        var role: ThumborFilterRole { .geometry }
        var description: String { "focal(\(String(reflecting: box)))" }
    }
}
