import CVision
import DockCore

/// A BGR colour for annotations.
public struct Color: Sendable, Hashable {
    public var blue: UInt8
    public var green: UInt8
    public var red: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let green = Color(red: 40, green: 220, blue: 60)
    public static let red = Color(red: 230, green: 40, blue: 40)
    public static let yellow = Color(red: 250, green: 210, blue: 30)
    public static let white = Color(red: 255, green: 255, blue: 255)
    public static let cyan = Color(red: 30, green: 200, blue: 230)
    public static let magenta = Color(red: 230, green: 40, blue: 220)
    public static let black = Color(red: 0, green: 0, blue: 0)
}

/// Annotation drawing in place. Drawing failures only lose the annotation, so they are ignored.
extension Frame {
    public mutating func drawRect(_ rect: PixelRect, color: Color, thickness: Int = 2) {
        _ = withMutableView {
            cvision_draw_rect(
                $0, Int32(rect.x.rounded()), Int32(rect.y.rounded()), Int32(rect.width.rounded()),
                Int32(rect.height.rounded()), color.blue, color.green, color.red, Int32(thickness))
        }
    }

    public mutating func drawLine(from a: PixelPoint, to b: PixelPoint, color: Color, thickness: Int = 1) {
        _ = withMutableView {
            cvision_draw_line(
                $0, Int32(a.x.rounded()), Int32(a.y.rounded()), Int32(b.x.rounded()), Int32(b.y.rounded()),
                color.blue, color.green, color.red, Int32(thickness))
        }
    }

    public mutating func drawCircle(at p: PixelPoint, radius: Int, color: Color, thickness: Int = 2) {
        _ = withMutableView {
            cvision_draw_circle(
                $0, Int32(p.x.rounded()), Int32(p.y.rounded()), Int32(radius), color.blue, color.green,
                color.red, Int32(thickness))
        }
    }

    public mutating func drawText(
        _ text: String, at p: PixelPoint, scale: Double = 0.6, color: Color = .white,
        thickness: Int = 1
    ) {
        _ = withMutableView {
            cvision_draw_text(
                $0, text, Int32(p.x.rounded()), Int32(p.y.rounded()), scale, color.blue, color.green,
                color.red, Int32(thickness))
        }
    }
}
