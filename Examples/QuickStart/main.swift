// The shortest real program: load a URL (or a file path) with a 256 px thumbnail and print what came back.
//   swift run quickstart https://example.com/cat.jpg
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

let argument = CommandLine.arguments.dropFirst().first ?? "Examples/Assets/sample-progressive.jpg"
let url = URL(string: argument).flatMap { $0.scheme == nil ? nil : $0 } ?? URL(fileURLWithPath: argument)

let manager = try WebImage.makeManager(allowLocalURLs: true)
var context = ImageContext()
context[.thumbnailPixelSize] = PixelSize(width: 256, height: 256)
do {
    let result = try await manager.loadImage(with: url, context: context)
    let image = result.image
    print("\(image.format) \(image.width)x\(image.height), \(image.frameCount) frame(s), from \(result.cacheType)")
} catch {
    print("failed: \(error)")
}
