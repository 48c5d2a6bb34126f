import DockCore
import TestSupport
import Testing

@Suite(.tags(.unit)) struct CoordinateTests {
    let coordinates = ImageCoordinates(size: PixelSize(width: 1280, height: 720))

    @Test func pixelRectBecomesLowerLeftUnitRect() {
        // A box in the top-left corner of the image sits at the top of the unit square.
        let rect = coordinates.normalized(PixelRect(x: 0, y: 0, width: 128, height: 72))
        #expect(abs(rect.x - 0) < 1e-12)
        #expect(abs(rect.y - 0.9) < 1e-12)
        #expect(abs(rect.width - 0.1) < 1e-12)
        #expect(abs(rect.height - 0.1) < 1e-12)
    }

    @Test func unitRectBecomesTopLeftPixelRect() {
        // A unit rect touching the bottom edge ends at the last pixel row.
        let rect = coordinates.pixels(NormalizedRect(x: 0.5, y: 0, width: 0.25, height: 0.5))
        #expect(rect == PixelRect(x: 640, y: 360, width: 320, height: 360))
    }

    @Test(arguments: [
        PixelRect(x: 13, y: 700, width: 40, height: 20), PixelRect(x: 1000, y: 5, width: 280, height: 300),
        PixelRect(x: 0.5, y: 0.25, width: 1, height: 1),
    ])
    func roundTripsBothWays(_ rect: PixelRect) {
        let back = coordinates.pixels(coordinates.normalized(rect))
        #expect(abs(back.x - rect.x) < 1e-9 && abs(back.y - rect.y) < 1e-9)
        #expect(abs(back.width - rect.width) < 1e-9 && abs(back.height - rect.height) < 1e-9)
        let unit = NormalizedRect(x: 0.2, y: 0.7, width: 0.1, height: 0.2)
        let again = coordinates.normalized(coordinates.pixels(unit))
        #expect(abs(again.y - unit.y) < 1e-12 && abs(again.x - unit.x) < 1e-12)
    }

    @Test func pointsFlipVertically() {
        let p = coordinates.normalized(PixelPoint(x: 320, y: 180))
        #expect(p.x == 0.25 && p.y == 0.75)
        #expect(coordinates.pixels(x: 0.25, y: 0.75) == PixelPoint(x: 320, y: 180))
    }

    @Test func intersectionOverUnion() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(a.intersectionOverUnion(a) == 1)
        #expect(a.intersectionOverUnion(PixelRect(x: 5, y: 0, width: 10, height: 10)) == 50.0 / 150.0)
        #expect(a.intersectionOverUnion(PixelRect(x: 20, y: 20, width: 5, height: 5)) == 0)
    }
}
