import CVision
import DockCore
import Foundation

/// A camera calibration as OpenCV writes it: the matrix and the image size it was made at.
public struct CameraCalibration: Sendable, Hashable {
    public var intrinsics: CameraIntrinsics
    public var size: PixelSize

    public init(intrinsics: CameraIntrinsics, size: PixelSize) {
        self.intrinsics = intrinsics
        self.size = size
    }

    /// Reads OpenCV's YAML or JSON calibration format (camera_matrix, image_width, image_height).
    public static func load(_ path: String) throws(FrameSourceError) -> CameraCalibration {
        // Checked here: OpenCV would print a line of its own on stderr before saying so.
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw FrameSourceError("calibration \(path): cannot read the file (does it exist? is it readable?)")
        }
        var k = [Double](repeating: 0, count: 9)
        var width: Int32 = 0
        var height: Int32 = 0
        let status = k.withUnsafeMutableBufferPointer {
            cvision_read_calibration(path, $0.baseAddress, &width, &height)
        }
        guard status == 0 else {
            throw FrameSourceError("calibration \(path): \(String(cString: cvision_last_error()))")
        }
        guard k[0] > 0, k[4] > 0 else { throw FrameSourceError("calibration \(path): focal lengths must be positive") }
        return CameraCalibration(
            intrinsics: CameraIntrinsics(fx: k[0], fy: k[4], cx: k[2], cy: k[5]),
            size: PixelSize(width: Int(width), height: Int(height)))
    }
}

/// Builds the `CameraInformation` for a capture: a calibration file when there is one (scaled to
/// the negotiated size), else a configured horizontal field of view, else a typical webcam's.
/// Zoom narrows the view: UVC's zoom_absolute is proportional to focal length, so f scales with
/// zoom / minimum zoom.
public struct CameraIntrinsicsSource: Sendable {
    /// A typical USB webcam's horizontal field of view (degrees) when nothing else is known.
    public static let defaultFieldOfView = 70.0

    public var calibration: CameraCalibration?
    public var fieldOfView: Double?

    public init(calibration: CameraCalibration? = nil, fieldOfView: Double? = nil) {
        self.calibration = calibration
        self.fieldOfView = fieldOfView
    }

    public func cameraInformation(size: PixelSize, zoom: (value: Int64, minimum: Int64)? = nil) -> CameraInformation {
        var intrinsics: CameraIntrinsics
        if let calibration {
            intrinsics = calibration.intrinsics.scaled(from: calibration.size, to: size)
        } else {
            intrinsics = CameraIntrinsics(
                horizontalFieldOfView: (fieldOfView ?? Self.defaultFieldOfView) * .pi / 180, size: size)
        }
        if let zoom, zoom.minimum > 0, zoom.value > zoom.minimum {
            let factor = Double(zoom.value) / Double(zoom.minimum)
            intrinsics.fx *= factor
            intrinsics.fy *= factor
        }
        return CameraInformation(referenceDimensions: size, intrinsics: intrinsics)
    }
}
