/// A rectangle in unit coordinates (0…1) with the origin at the LOWER-left corner of the image,
/// as Vision and DockKit use: `y` is the bottom edge of the rectangle, measured upward.
public struct NormalizedRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let unit = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var area: Double { max(0, width) * max(0, height) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// Intersection over union with another rectangle (0 when they do not overlap).
    public func intersectionOverUnion(_ other: NormalizedRect) -> Double {
        overlapRatio((x, y, width, height), (other.x, other.y, other.width, other.height))
    }

    public func contains(x px: Double, y py: Double) -> Bool { px >= x && px <= maxX && py >= y && py <= maxY }

    public var description: String {
        "(x: \(rounded(x)), y: \(rounded(y)), w: \(rounded(width)), h: \(rounded(height)))"
    }

    private func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}

/// A rectangle in image pixels with the origin at the TOP-left corner.
public struct PixelRect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public func contains(x px: Double, y py: Double) -> Bool { px >= x && px <= maxX && py >= y && py <= maxY }
    public var area: Double { max(0, width) * max(0, height) }

    /// Intersection over union with another rectangle (0 when they do not overlap).
    public func intersectionOverUnion(_ other: PixelRect) -> Double {
        overlapRatio((x, y, width, height), (other.x, other.y, other.width, other.height))
    }

    public func scaled(by factor: Double) -> PixelRect {
        PixelRect(x: x * factor, y: y * factor, width: width * factor, height: height * factor)
    }
}

/// A point in image pixels, top-left origin.
public struct PixelPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The one place that converts between image pixels (top-left origin) and normalized
/// lower-left-origin unit coordinates. Everything else goes through it.
public struct ImageCoordinates: Hashable, Sendable {
    public let width: Double
    public let height: Double

    public init(size: PixelSize) {
        width = Double(size.width)
        height = Double(size.height)
    }

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public func normalized(_ rect: PixelRect) -> NormalizedRect {
        NormalizedRect(
            x: rect.x / width,
            y: 1 - (rect.y + rect.height) / height,
            width: rect.width / width,
            height: rect.height / height)
    }

    public func pixels(_ rect: NormalizedRect) -> PixelRect {
        PixelRect(
            x: rect.x * width,
            y: (1 - rect.y - rect.height) * height,
            width: rect.width * width,
            height: rect.height * height)
    }

    /// A pixel position as a unit point, lower-left origin.
    public func normalized(_ point: PixelPoint) -> (x: Double, y: Double) {
        (point.x / width, 1 - point.y / height)
    }

    /// A unit point (lower-left origin) as a pixel position.
    public func pixels(x: Double, y: Double) -> PixelPoint {
        PixelPoint(x: x * width, y: (1 - y) * height)
    }
}

/// Intersection over union of two axis-aligned boxes given as (x, y, width, height); the same
/// in either origin convention.
func overlapRatio(_ a: (x: Double, y: Double, w: Double, h: Double), _ b: (x: Double, y: Double, w: Double, h: Double))
    -> Double
{
    let w = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
    let h = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
    guard w > 0, h > 0 else { return 0 }
    let intersection = w * h
    return intersection / (max(0, a.w) * max(0, a.h) + max(0, b.w) * max(0, b.h) - intersection)
}
