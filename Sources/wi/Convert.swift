import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import WebImage

/// `wi convert IN OUT [--quality Q] [--lossless] [--thumbnail N] [--srgb]`: decode and encode, format from OUT's extension.
struct Convert: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Decode an image and encode it in the format OUT's extension names.",
        discussion: """
            Formats that can be written: png, jpg/jpeg, heic, avif (and webp, gif when those coders are linked).

            Example:
              wi convert photo.heic photo.jpg --quality 0.85 --thumbnail 1024 --srgb
            """
    )

    @Argument(help: "The image to read.") var input: String
    @Argument(help: "The file to write; its extension picks the format.") var output: String
    @Option(help: "Quality from 0 to 1 for lossy formats.") var quality: Double = 0.9
    @Flag(help: "Encode losslessly where the format can.") var lossless = false
    @Option(help: "Fit inside an N x N box first (never upscales).") var thumbnail: Int?
    @Flag(help: .init(WICommandSetup.srgbHelp)) var srgb = false

    func validate() throws {
        try WICommandSetup.checkQuality(quality)
        try WICommandSetup.checkThumbnail(thumbnail)
        guard ImageFormat.named(output.pathExtension) != nil else {
            throw ValidationError("cannot tell the format from '\(output)': use an extension such as .png or .jpg")
        }
    }

    func run() throws {
        let coders = WebImage.makeCoders()
        let format = ImageFormat.named(output.pathExtension)!
        do {
            guard let data = FileManager.default.contents(atPath: input) else {
                throw ImageError(.invalidURL, "cannot read \(input)")
            }
            var options = DecodeOptions()
            if let thumbnail { options.thumbnailPixelSize = PixelSize(width: thumbnail, height: thumbnail) }
            if srgb { options.targetColorSpace = .sRGB }
            let image = try coders.decode(data, options: options)
            let encoded = try coders.encode(
                image, as: format, options: EncodeOptions(quality: quality, lossless: lossless))
            try encoded.write(to: URL(fileURLWithPath: output), options: .atomic)
            print("\(input) -> \(output)\t\(format.identifier)\t\(image.width)x\(image.height)\t\(encoded.count) bytes")
        } catch {
            writeToStandardError("wi convert: \(describe(error))\n")
            throw ExitCode(1)
        }
    }
}

/// One readable line for an error: the code and message of an `ImageError`, else its description.
func describe(_ error: any Error) -> String {
    if let error = error as? ImageError { return "\(error.code.rawValue): \(error.message)" }
    return "\(error)"
}
