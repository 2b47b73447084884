import Foundation
import WICore

enum GIFEncoder {
    static func encode(_ image: Image, options: EncodeOptions) throws(ImageError) -> Data {
        throw ImageError(.encodingFailed, "not yet")
    }
}
