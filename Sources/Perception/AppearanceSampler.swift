import DockCore

/// Reads a face's `Appearance` from the frame it was found in: the face itself and the clothes
/// below it, each sampled on a coarse grid (a few hundred pixels, whatever the frame's size).
public enum AppearanceSampler {
    static let grid = 12
    static let brightnessBins = 8
    static let colourBins = 5
    /// The red and green shares of a pixel's colour fall in this range for skin, hair and most
    /// clothes; shares outside it land in the end bins.
    static let colourShares = 0.15..<0.55

    /// The appearance of the face at `face` (unit rect, lower-left origin) in `frame`.
    public static func appearance(ofFace face: NormalizedRect, in frame: Frame) -> Appearance {
        let coordinates = ImageCoordinates(size: frame.size)
        let box = coordinates.pixels(face)
        // The inner face, clear of the background at its corners.
        let inner = PixelRect(
            x: box.x + 0.15 * box.width, y: box.y + 0.15 * box.height, width: 0.7 * box.width,
            height: 0.7 * box.height)
        // Shoulders and chest: a little wider than the face, from just below the chin.
        let torso = PixelRect(
            x: box.midX - 0.6 * box.width, y: box.maxY + 0.25 * box.height, width: 1.2 * box.width,
            height: 0.75 * box.height)
        return Appearance(parts: histograms(of: inner, in: frame) + histograms(of: torso, in: frame))
    }

    /// Brightness, red share and green share histograms over `region`; empty parts when less
    /// than half of it lies in the frame, or (colour) when the frame is grey.
    static func histograms(of region: PixelRect, in frame: Frame) -> [[Float]] {
        var brightness = [Float](repeating: 0, count: brightnessBins)
        var red = [Float](repeating: 0, count: colourBins)
        var green = [Float](repeating: 0, count: colourBins)
        var inside = 0
        let channels = frame.format.channels
        for row in 0..<grid {
            let y = Int(region.y + (Double(row) + 0.5) / Double(grid) * region.height)
            guard y >= 0, y < frame.height else { continue }
            for column in 0..<grid {
                let x = Int(region.x + (Double(column) + 0.5) / Double(grid) * region.width)
                guard x >= 0, x < frame.width else { continue }
                inside += 1
                let offset = y * frame.bytesPerRow + x * channels
                guard channels == 3 else {
                    brightness[Int(frame.pixels[offset]) * brightnessBins / 256] += 1
                    continue
                }
                let b = Int(frame.pixels[offset])
                let g = Int(frame.pixels[offset + 1])
                let r = Int(frame.pixels[offset + 2])
                brightness[((77 * r + 150 * g + 29 * b) >> 8) * brightnessBins / 256] += 1
                let sum = Double(r + g + b + 1)
                red[bin(Double(r) / sum)] += 1
                green[bin(Double(g) / sum)] += 1
            }
        }
        guard inside * 2 >= grid * grid else { return [[], [], []] }
        return channels == 3 ? [brightness, red, green] : [brightness, [], []]
    }

    private static func bin(_ share: Double) -> Int {
        let position = (share - colourShares.lowerBound) / (colourShares.upperBound - colourShares.lowerBound)
        return min(colourBins - 1, max(0, Int(position * Double(colourBins))))
    }
}
