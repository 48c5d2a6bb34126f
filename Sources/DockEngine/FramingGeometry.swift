import DockCore
import Foundation

/// Where the chosen subject's centre is aimed: the framing mode's point inside the region of
/// interest, moved inwards as far as needed to keep the whole subject inside the region.
/// Unit coordinates, lower-left origin (the region arrives upper-left, as DockKit gives it).
package struct FramingGeometry: Sendable, Equatable {
    var mode: FramingMode = .automatic
    /// Lower-left origin.
    var region = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    package static let fullFrame = NormalizedRect(x: 0, y: 0, width: 1, height: 1)
    /// An upper-left unit rect is a top-left "pixel" rect of a 1×1 image: the one converter flips it.
    private static let unitImage = ImageCoordinates(width: 1, height: 1)

    /// DockKit's region (upper-left origin) in the house's coordinates; nil when it is not a
    /// finite, non-empty rect inside the frame.
    package static func region(fromUpperLeft rect: CGRect) -> NormalizedRect? {
        let x = Double(rect.origin.x)
        let y = Double(rect.origin.y)
        let w = Double(rect.width)
        let h = Double(rect.height)
        guard [x, y, w, h].allSatisfy(\.isFinite), w >= 0.05, h >= 0.05, x >= 0, y >= 0,
            x + w <= 1 + 1e-9, y + h <= 1 + 1e-9
        else { return nil }
        return unitImage.normalized(PixelRect(x: x, y: y, width: w, height: h))
    }

    static func upperLeft(_ region: NormalizedRect) -> CGRect {
        let rect = unitImage.pixels(region)
        return CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    func aimPoint(for subject: NormalizedRect?) -> (x: Double, y: Double) {
        let point = mode.framingPoint
        var x = region.x + point.x * region.width
        var y = region.y + point.y * region.height
        guard let subject else { return (x, y) }
        x = Self.keepInside(x, halfSize: subject.width / 2, from: region.x, to: region.x + region.width)
        y = Self.keepInside(y, halfSize: subject.height / 2, from: region.y, to: region.y + region.height)
        return (x, y)
    }

    /// The centre moved so that ±halfSize stays within [from, to]; the span's middle when the
    /// subject is larger than the span.
    private static func keepInside(_ centre: Double, halfSize: Double, from: Double, to: Double) -> Double {
        guard to - from > 2 * halfSize else { return (from + to) / 2 }
        return min(max(centre, from + halfSize), to - halfSize)
    }
}
