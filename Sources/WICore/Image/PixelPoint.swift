extension ImageCoding {
    /// A point in pixels, from the image's top-left corner.
    ///
    /// Thread safety: a value type; safe to send and share.
    public struct PixelPoint: Hashable, Sendable, CustomStringConvertible {
        public var x: Int
        public var y: Int

        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }

        public var description: String { "(\(x), \(y))" }
    }
}
