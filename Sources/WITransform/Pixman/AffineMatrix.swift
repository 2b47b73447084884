/// A 2-D affine map: x' = a x + c y + tx, y' = b x + d y + ty.
///
/// The transformers give pixman the map from destination pixels to source pixels (pixman samples the source at
/// the image of each destination pixel centre).
struct AffineMatrix: CustomStringConvertible {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, tx = 0.0, ty = 0.0

    static let identity = AffineMatrix()

    static func scale(_ sx: Double, _ sy: Double) -> AffineMatrix { AffineMatrix(a: sx, d: sy) }

    static func translation(_ x: Double, _ y: Double) -> AffineMatrix { AffineMatrix(tx: x, ty: y) }

    /// `self` applied after `other`: p -> self(other(p)).
    func after(_ other: AffineMatrix) -> AffineMatrix {
        AffineMatrix(
            a: a * other.a + c * other.b, b: b * other.a + d * other.b,
            c: a * other.c + c * other.d, d: b * other.c + d * other.d,
            tx: a * other.tx + c * other.ty + tx, ty: b * other.tx + d * other.ty + ty)
    }

    var description: String { "[\(a) \(c) \(tx); \(b) \(d) \(ty)]" }
}
