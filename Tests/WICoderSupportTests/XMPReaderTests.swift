import Foundation
import Testing
import WICore
import WICoderSupport

/// `tiff:Orientation` in XMP packets: the attribute and element forms editors write, what is not it, and rewriting.
@Suite struct XMPReaderTests {
    static func packet(_ description: String) -> Data {
        Data(
            """
            <?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?><x:xmpmeta xmlns:x='adobe:ns:meta/'>\
            <rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\(description)</rdf:RDF></x:xmpmeta>
            """.utf8)
    }

    @Test func readsTheAttributeAndElementForms() {
        let tiff = "xmlns:tiff='http://ns.adobe.com/tiff/1.0/'"
        // exiftool's form (SDWebImage's TestJFIF.jpg), Photoshop's attribute form, either quote, spaces.
        #expect(
            ImageCoding.XMPReader.orientation(
                in: Self.packet(
                    "<rdf:Description \(tiff)>\n <tiff:Orientation>3</tiff:Orientation>\n</rdf:Description>")) == .down)
        #expect(
            ImageCoding.XMPReader.orientation(
                in: Self.packet(
                    "<rdf:Description \(tiff) tiff:Orientation=\"6\"/>")) == .right)
        #expect(
            ImageCoding.XMPReader.orientation(
                in: Self.packet(
                    "<rdf:Description \(tiff) tiff:Orientation = '8'/>")) == .left)
        #expect(
            ImageCoding.XMPReader.orientation(
                in: Self.packet(
                    "<rdf:Description \(tiff)><tiff:Orientation> 2 </tiff:Orientation></rdf:Description>"))
                == .upMirrored)
    }

    @Test func ignoresWhatIsNotAnOrientation() {
        for description in [
            "<rdf:Description tiff:Orientation='0'/>", "<rdf:Description tiff:Orientation='9'/>",
            "<rdf:Description tiff:Orientation='12'/>", "<rdf:Description tiff:OrientationX='3'/>",
            "<rdf:Description exif:Orientation='3'/>", "<rdf:Description tiff:Orientation=3/>",
            "<rdf:Description/>",
        ] {
            #expect(ImageCoding.XMPReader.orientation(in: Self.packet(description)) == nil, "\(description)")
        }
        #expect(ImageCoding.XMPReader.orientation(in: Data()) == nil)
        #expect(ImageCoding.XMPReader.orientation(in: Data("tiff:Orientation".utf8)) == nil)
        #expect(ImageCoding.XMPReader.orientation(in: Data("tiff:Orientation='".utf8)) == nil)
        // A bad first value does not hide a good later one.
        #expect(
            ImageCoding.XMPReader.orientation(in: Data("tiff:OrientationX='3' tiff:Orientation='5'".utf8))
                == .leftMirrored)
    }

    @Test func rewritesTheValueInPlace() {
        let original = Self.packet("<rdf:Description><tiff:Orientation>3</tiff:Orientation></rdf:Description>")
        let upright = ImageCoding.XMPReader.replacingOrientation(in: original, with: .up)
        #expect(upright.count == original.count)
        #expect(ImageCoding.XMPReader.orientation(in: upright) == .up)
        #expect(String(decoding: upright, as: UTF8.self).contains("<tiff:Orientation>1</tiff:Orientation>"))
        let none = Self.packet("<rdf:Description/>")
        #expect(ImageCoding.XMPReader.replacingOrientation(in: none, with: .up) == none)
        // A slice whose indices do not start at 0.
        let slice = (Data("padding".utf8) + original).dropFirst(7)
        #expect(ImageCoding.XMPReader.orientation(in: slice) == .down)
        #expect(
            ImageCoding.XMPReader.orientation(in: ImageCoding.XMPReader.replacingOrientation(in: slice, with: .right))
                == .right)
    }
}
