import DockCore
import Foundation

/// A small line chart drawn with OpenCV into a BGR frame: axes with ticks, line series, vertical
/// markers and shaded spans. Enough for the benchmark's figures, written as PNG. Text is ASCII
/// (OpenCV's Hershey fonts have no other glyphs).
public struct Plot {
    public struct Series {
        public var name: String
        public var points: [(x: Double, y: Double?)]
        public var color: Color
        public var thickness: Int

        public init(name: String, points: [(x: Double, y: Double?)], color: Color, thickness: Int = 2) {
            self.name = name
            self.points = points
            self.color = color
            self.thickness = thickness
        }
    }

    public struct Span {
        public var from: Double
        public var to: Double
        public var color: Color
        /// Fraction of the plot's height from the bottom the span fills (a strip), 1 = all.
        public var height: Double
        public var row: Int

        public init(from: Double, to: Double, color: Color, height: Double = 1, row: Int = 0) {
            self.from = from
            self.to = to
            self.color = color
            self.height = height
            self.row = row
        }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var size = PixelSize(width: 1000, height: 400)
    public var series: [Series] = []
    public var markers: [(x: Double, color: Color)] = []
    public var spans: [Span] = []
    public var notes: [(text: String, color: Color)] = []
    public var xRange: ClosedRange<Double>?
    public var yRange: ClosedRange<Double>?

    public init(title: String, xLabel: String, yLabel: String) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
    }

    static let ink = Color(red: 40, green: 40, blue: 40)
    static let grid = Color(red: 225, green: 225, blue: 225)

    /// A tick step of 1, 2 or 5 × 10^k giving about `count` ticks over `span`.
    static func tickStep(_ span: Double, count: Double = 6) -> Double {
        guard span > 0, span.isFinite else { return 1 }
        let raw = span / count
        let magnitude = pow(10, floor(log10(raw)))
        let normalized = raw / magnitude
        return (normalized < 1.5 ? 1 : normalized < 3.5 ? 2 : normalized < 7.5 ? 5 : 10) * magnitude
    }

    public func render() -> Frame {
        var image = Frame(
            stamp: FrameStamp(sequence: 0, time: .zero), width: size.width, height: size.height, format: .bgr)
        let w = Double(size.width)
        let h = Double(size.height)
        image.drawRect(PixelRect(x: 0, y: 0, width: w, height: h), color: .white, thickness: -1)
        let left = 70.0
        let right = w - 20
        let top = 40.0
        let bottom = h - 50
        let xs = series.flatMap { $0.points.map(\.x) } + markers.map(\.x) + spans.flatMap { [$0.from, $0.to] }
        let ys = series.flatMap { $0.points.compactMap(\.y) }.filter(\.isFinite)
        let xr = xRange ?? ((xs.min() ?? 0)...max((xs.max() ?? 1), (xs.min() ?? 0) + 1e-6))
        var yr = yRange ?? ((ys.min() ?? 0)...(ys.max() ?? 1))
        if yr.upperBound - yr.lowerBound < 1e-9 { yr = (yr.lowerBound - 1)...(yr.upperBound + 1) }
        func px(_ x: Double) -> Double { left + (x - xr.lowerBound) / (xr.upperBound - xr.lowerBound) * (right - left) }
        func py(_ y: Double) -> Double {
            bottom - (min(max(y, yr.lowerBound), yr.upperBound) - yr.lowerBound) / (yr.upperBound - yr.lowerBound)
                * (bottom - top)
        }

        for span in spans {
            let strip = (bottom - top) * span.height
            let y = bottom - strip * Double(span.row + 1)
            image.drawRect(
                PixelRect(
                    x: px(max(span.from, xr.lowerBound)), y: y,
                    width: max(1, px(min(span.to, xr.upperBound)) - px(max(span.from, xr.lowerBound))), height: strip),
                color: span.color, thickness: -1)
        }
        // Grid, ticks and labels.
        let xStep = Self.tickStep(xr.upperBound - xr.lowerBound)
        let yStep = Self.tickStep(yr.upperBound - yr.lowerBound, count: 5)
        var x = (xr.lowerBound / xStep).rounded(.up) * xStep
        while x <= xr.upperBound + 1e-9 {
            image.drawLine(from: PixelPoint(x: px(x), y: top), to: PixelPoint(x: px(x), y: bottom), color: Self.grid)
            image.drawText(
                Self.label(x, step: xStep), at: PixelPoint(x: px(x) - 10, y: bottom + 18), scale: 0.45, color: Self.ink)
            x += xStep
        }
        var y = (yr.lowerBound / yStep).rounded(.up) * yStep
        while y <= yr.upperBound + 1e-9 {
            image.drawLine(from: PixelPoint(x: left, y: py(y)), to: PixelPoint(x: right, y: py(y)), color: Self.grid)
            image.drawText(Self.label(y, step: yStep), at: PixelPoint(x: 8, y: py(y) + 5), scale: 0.45, color: Self.ink)
            y += yStep
        }
        image.drawRect(
            PixelRect(x: left, y: top, width: right - left, height: bottom - top), color: Self.ink, thickness: 1)
        for marker in markers {
            image.drawLine(
                from: PixelPoint(x: px(marker.x), y: top), to: PixelPoint(x: px(marker.x), y: bottom),
                color: marker.color, thickness: 1)
        }
        for s in series {
            var previous: PixelPoint?
            for point in s.points {
                guard let value = point.y, value.isFinite else {
                    previous = nil
                    continue
                }
                let p = PixelPoint(x: px(point.x), y: py(value))
                if let previous { image.drawLine(from: previous, to: p, color: s.color, thickness: s.thickness) }
                previous = p
            }
        }
        image.drawText(title, at: PixelPoint(x: left + 140, y: 26), scale: 0.6, color: Self.ink, thickness: 1)
        image.drawText(xLabel, at: PixelPoint(x: (left + right) / 2 - 40, y: h - 12), scale: 0.5, color: Self.ink)
        image.drawText(yLabel, at: PixelPoint(x: 8, y: top - 10), scale: 0.45, color: Self.ink)
        // Legend, top right.
        var legendY = top + 18
        for (text, color) in series.map({ ($0.name, $0.color) }) + notes.map({ ($0.text, $0.color) })
        where !text.isEmpty {
            image.drawRect(
                PixelRect(x: right - 250, y: legendY - 10, width: 18, height: 10), color: color, thickness: -1)
            image.drawText(text, at: PixelPoint(x: right - 226, y: legendY), scale: 0.45, color: Self.ink)
            legendY += 18
        }
        return image
    }

    static func label(_ value: Double, step: Double) -> String {
        step >= 1
            ? String(format: "%.0f", value)
            : step >= 0.1 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }
}
