import CV4L2
import CameraSimulation
import Capture
import DockCore
import Foundation
import Imaging

/// Frames and devices for capture tests.
public enum CameraFixtures {
    /// A photo encoded as JPEG by OpenCV, at the given size.
    public static func jpeg(_ photo: String = "astronaut.png", size: PixelSize? = nil) throws -> [UInt8] {
        var frame = try Fixtures.photo(photo)
        if let size { frame = try frame.resized(to: size) }
        let path = Fixtures.temporaryDirectory("jpeg") + "/frame.jpg"
        try frame.write(to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A YUYV frame whose luma is `x + y` (mod 256) and chroma neutral: gray after decoding.
    public static func yuyv(width: Int, height: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 128, count: width * height * 2)
        for y in 0..<height {
            for x in 0..<width { bytes[(y * width + x) * 2] = UInt8((x + y) % 256) }
        }
        return bytes
    }

    /// A UVC-like camera: MJPEG and YUYV at two sizes, pan/tilt/zoom, exposure and privacy.
    public static func webcam(jpegSize: (Int, Int) = (512, 512)) -> ScriptedVideoDevice {
        ScriptedVideoDevice(
            formats: [
                .init(
                    .mjpeg, "Motion-JPEG", compressed: true,
                    sizes: [(jpegSize.0, jpegSize.1, [30, 15]), (1280, 720, [30])]),
                .init(.yuyv, "YUYV 4:2:2", sizes: [(64, 48, [30]), (1280, 720, [10])]),
            ],
            controls: [
                .init(id: CV4L2_CID_BRIGHTNESS, name: "Brightness", minimum: 0, maximum: 255, defaultValue: 128),
                .init(
                    id: CV4L2_CID_EXPOSURE_AUTO, name: "Auto Exposure", type: V4L2_CTRL_TYPE_MENU.rawValue, minimum: 0,
                    maximum: 3, defaultValue: 3,
                    menu: ["Auto Mode", "Manual Mode", "Shutter Priority Mode", "Aperture Priority Mode"]),
                .init(
                    id: CV4L2_CID_PAN_ABSOLUTE, name: "Pan, Absolute", minimum: -36000, maximum: 36000, step: 3600,
                    defaultValue: 0),
                .init(
                    id: CV4L2_CID_TILT_ABSOLUTE, name: "Tilt, Absolute", minimum: -36000, maximum: 36000, step: 3600,
                    defaultValue: 0),
                .init(
                    id: CV4L2_CID_ZOOM_ABSOLUTE, name: "Zoom, Absolute", minimum: 100, maximum: 500, defaultValue: 100),
                .init(
                    id: CV4L2_CID_PRIVACY, name: "Privacy", type: V4L2_CTRL_TYPE_BOOLEAN.rawValue, minimum: 0,
                    maximum: 1, defaultValue: 0),
            ])
    }
}
