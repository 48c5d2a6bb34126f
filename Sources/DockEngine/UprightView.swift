import DockCore
import Foundation

/// A camera mounted on its side or upside down on the head: the observations a client gives are
/// in its picture's own coordinates, and `CameraInformation.orientation` says how that picture
/// is turned. The controller works in the upright view (x along the head's pan, y along its
/// tilt), so both the rects and the camera are turned upright first.
///
/// The turn is the camera's, clockwise as seen from behind it: `.portrait` one quarter (what is
/// to the room's right shows at the top of the picture), `.landscapeLeft` half (upside down),
/// `.portraitUpsideDown` three quarters (the room's right shows at the bottom). `.corrected`,
/// `.landscapeRight` (the sensor's own landscape), `.faceUp`, `.faceDown` and `.unknown` take
/// the picture as upright.
enum UprightView {
    static func quarterTurns(_ orientation: CameraOrientation) -> Int {
        switch orientation {
        case .portrait: 1
        case .landscapeLeft: 2
        case .portraitUpsideDown: 3
        case .corrected, .landscapeRight, .faceUp, .faceDown, .unknown: 0
        }
    }

    /// A unit rect (lower-left origin) of the picture, as the upright camera would see it.
    static func rect(_ r: NormalizedRect, turns: Int) -> NormalizedRect {
        switch turns {
        case 1: NormalizedRect(x: r.y, y: 1 - r.x - r.width, width: r.height, height: r.width)
        case 2: NormalizedRect(x: 1 - r.x - r.width, y: 1 - r.y - r.height, width: r.width, height: r.height)
        case 3: NormalizedRect(x: 1 - r.y - r.height, y: r.x, width: r.height, height: r.width)
        default: r
        }
    }

    /// The camera's size and intrinsics (pixels, top-left origin) as the upright camera's.
    static func camera(_ c: DockCore.CameraInformation, turns: Int) -> DockCore.CameraInformation {
        let (w, h) = (Double(c.referenceDimensions.width), Double(c.referenceDimensions.height))
        let sideways = PixelSize(width: c.referenceDimensions.height, height: c.referenceDimensions.width)
        let k = c.intrinsics
        switch turns {
        case 1:
            return DockCore.CameraInformation(
                referenceDimensions: sideways, intrinsics: CameraIntrinsics(fx: k.fy, fy: k.fx, cx: h - k.cy, cy: k.cx))
        case 2:
            return DockCore.CameraInformation(
                referenceDimensions: c.referenceDimensions,
                intrinsics: CameraIntrinsics(fx: k.fx, fy: k.fy, cx: w - k.cx, cy: h - k.cy))
        case 3:
            return DockCore.CameraInformation(
                referenceDimensions: sideways, intrinsics: CameraIntrinsics(fx: k.fy, fy: k.fx, cx: k.cy, cy: w - k.cx))
        default:
            return c
        }
    }
}
