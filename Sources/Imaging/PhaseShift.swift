import CVision
import DockCore

/// How far a region's content moved between two pictures.
public struct ImageShift: Sendable, Hashable {
    /// Pixels, x to the right and y down.
    public var x: Double
    public var y: Double
    /// The correlation peak's height, 0…1: low when the region has too little texture or changed.
    public var response: Double
}

extension Frame {
    /// How far the content of `region` moved from this picture to `later` (the same size), by
    /// phase correlation: sub-pixel, and blind to an overall change of brightness. `guess`
    /// says where to look in `later` (whole pixels from the region): phase correlation finds
    /// shifts up to a quarter of the region or so, so a large move is found in two steps.
    public func shift(
        to later: Frame, in region: PixelRect, guess: (x: Int, y: Int) = (0, 0)
    ) throws(ImagingError) -> ImageShift {
        var (x, y, response) = (0.0, 0.0, 0.0)
        let (left, top) = (Int32(region.x.rounded()), Int32(region.y.rounded()))
        let status = withView { before in
            later.withView { after in
                cvision_phase_shift(
                    before, after, left, top, Int32(region.width.rounded()), Int32(region.height.rounded()),
                    left + Int32(guess.x), top + Int32(guess.y), &x, &y, &response)
            }
        }
        try check(status, "phase shift")
        return ImageShift(x: x + Double(guess.x), y: y + Double(guess.y), response: response)
    }
}
