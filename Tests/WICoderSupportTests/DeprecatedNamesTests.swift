import Testing
import WICoderSupport
import WICore

/// The old top-level names of the types that moved from WICore to WICoderSupport still compile, each naming the same
/// type as its new place (this declaration is deprecated itself, so using them here warns nothing).
@available(*, deprecated, message: "uses WICore's old names on purpose")
enum MovedNames {
    static let pairs: [(Any.Type, Any.Type)] = [
        (AnimationFrameInfo.self, ImageCoding.AnimationFrameInfo.self),
        ((any AnimationFrameSource).self, (any ImageCoding.AnimationFrameSource).self),
        (CompositedAnimationDecoder.self, ImageCoding.CompositedAnimationDecoder.self),
        (ExifReader.self, ImageCoding.ExifReader.self),
        (FrameCompositor.self, ImageCoding.FrameCompositor.self),
    ]
}

@Suite struct MovedNamesTests {
    @available(*, deprecated, message: "uses WICore's old names on purpose")
    @Test func everyOldNameIsItsNewType() {
        #expect(MovedNames.pairs.count == 5)
        for (old, new) in MovedNames.pairs { #expect(ObjectIdentifier(old) == ObjectIdentifier(new)) }
    }
}
