import Testing
import WICore
import WITransform

@Suite struct KeyTests {
    static let red = RGBAColor(hex: "#ff0000")!

    @Test func keysAreReadable() throws {
        #expect(try ResizeTransformer(width: 256, height: 256, mode: .aspectFit).key == "Resize(256x256,aspectFit)")
        #expect(try CropTransformer(x: 10, y: 20, width: 200, height: 100).key == "Crop(10,20,200x100)")
        #expect(FlipTransformer(horizontal: true).key == "Flip(horizontal)")
        #expect(FlipTransformer(horizontal: true, vertical: true).key == "Flip(horizontal,vertical)")
        #expect(try RotateTransformer(degrees: 45, fitsCanvas: true).key == "Rotate(45,fit)")
        #expect(try RotateTransformer(degrees: 12.5).key == "Rotate(12.5,keepSize)")
        #expect(
            try RoundCornerTransformer(radius: 20, borderWidth: 2, borderColor: Self.red).key
                == "RoundCorner(20,all,2,#ff0000ff)")
        #expect(
            try RoundCornerTransformer(radius: 8, corners: [.topLeft, .bottomRight]).key
                == "RoundCorner(8,topLeft+bottomRight,0,#00000000)")
        #expect(
            TintTransformer(color: RGBAColor(hex: "#ff000080")!, blendMode: .multiply).key == "Tint(#ff000080,multiply)"
        )
        #expect(try BlurTransformer(radius: 2.5).key == "Blur(2.5)")
    }

    @Test func anyParameterChangeChangesTheKey() throws {
        let variants: [[any ImageTransformer]] = try [
            [
                ResizeTransformer(width: 256, height: 256), ResizeTransformer(width: 256, height: 255),
                ResizeTransformer(width: 255, height: 256),
                ResizeTransformer(width: 256, height: 256, mode: .aspectFit),
                ResizeTransformer(width: 256, height: 256, mode: .aspectFill),
            ],
            [
                CropTransformer(x: 0, y: 0, width: 10, height: 10), CropTransformer(x: 1, y: 0, width: 10, height: 10),
                CropTransformer(x: 0, y: 1, width: 10, height: 10), CropTransformer(x: 0, y: 0, width: 11, height: 10),
                CropTransformer(x: 0, y: 0, width: 10, height: 11),
            ],
            [
                FlipTransformer(), FlipTransformer(horizontal: true), FlipTransformer(vertical: true),
                FlipTransformer(horizontal: true, vertical: true),
            ],
            [
                RotateTransformer(degrees: 45), RotateTransformer(degrees: 45, fitsCanvas: true),
                RotateTransformer(degrees: 45.5), RotateTransformer(degrees: -45),
            ],
            [
                RoundCornerTransformer(radius: 10), RoundCornerTransformer(radius: 10.5),
                RoundCornerTransformer(radius: 10, corners: .topLeft),
                RoundCornerTransformer(radius: 10, borderWidth: 1),
                RoundCornerTransformer(radius: 10, borderWidth: 1, borderColor: Self.red),
                RoundCornerTransformer(radius: 10, borderWidth: 1, borderColor: RGBAColor(hex: "#ff0001")!),
            ],
            [
                TintTransformer(color: Self.red), TintTransformer(color: RGBAColor(hex: "#ff0000fe")!),
                TintTransformer(color: Self.red, blendMode: .screen),
            ],
            [BlurTransformer(radius: 1), BlurTransformer(radius: 1.25), BlurTransformer(radius: 10)],
        ]
        let keys = variants.flatMap { $0.map(\.key) }
        #expect(Set(keys).count == keys.count, "\(keys)")
    }

    @Test func equalParametersGiveEqualKeys() throws {
        #expect(
            try ResizeTransformer(width: 8, height: 9, mode: .aspectFill).key
                == ResizeTransformer(width: 8, height: 9, mode: .aspectFill).key)
        #expect(try RotateTransformer(degrees: 30).key == RotateTransformer(degrees: 30.0).key)
        #expect(
            try RoundCornerTransformer(radius: 4, corners: [.topLeft, .topRight, .bottomLeft, .bottomRight]).key
                == RoundCornerTransformer(radius: 4, corners: .all).key)
        #expect(TintTransformer(color: RGBAColor(hex: "FF0000")!).key == TintTransformer(color: Self.red).key)
        #expect(try BlurTransformer(radius: 3).key == BlurTransformer(radius: 3).key)
    }

    @Test func pipelineJoinsChildKeysWithADash() throws {
        let pipeline = try PipelineTransformer([
            ResizeTransformer(width: 20, height: 20, mode: .aspectFit),
            RoundCornerTransformer(radius: 4), BlurTransformer(radius: 1),
        ])
        #expect(pipeline.key == "Resize(20x20,aspectFit)-RoundCorner(4,all,0,#00000000)-Blur(1)")
        let output = try pipeline.transform(try TestPixels.image(width: 40, height: 40) { _, _ in TestPixels.green })
        #expect(output.size == PixelSize(width: 20, height: 20))
        #expect(output.pixels.color(x: 0, y: 0).alpha < 128)
        #expect(output.pixels.color(x: 10, y: 10) == TestPixels.green)
    }
}
