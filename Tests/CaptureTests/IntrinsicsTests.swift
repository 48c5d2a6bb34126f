import Capture
import DockCore
import Foundation
import TestSupport
import Testing

@Suite(.tags(.unit)) struct IntrinsicsTests {
    static let yaml = """
        %YAML:1.0
        ---
        image_width: 1280
        image_height: 720
        camera_matrix: !!opencv-matrix
           rows: 3
           cols: 3
           dt: d
           data: [ 900., 0., 641.5, 0., 905., 362., 0., 0., 1. ]
        distortion_coefficients: !!opencv-matrix
           rows: 5
           cols: 1
           dt: d
           data: [ 0.1, -0.2, 0., 0., 0. ]
        """

    static let json = """
        {
          "image_width": 1280,
          "image_height": 720,
          "camera_matrix": { "type_id": "opencv-matrix", "rows": 3, "cols": 3, "dt": "d",
                             "data": [ 900.0, 0.0, 641.5, 0.0, 905.0, 362.0, 0.0, 0.0, 1.0 ] }
        }
        """

    func write(_ text: String, _ name: String) throws -> String {
        let path = Fixtures.temporaryDirectory("calib") + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [("calib.yml", yaml), ("calib.json", json)])
    func readsOpenCVCalibrationFiles(_ name: String, _ text: String) throws {
        let calibration = try CameraCalibration.load(try write(text, name))
        #expect(calibration.intrinsics == CameraIntrinsics(fx: 900, fy: 905, cx: 641.5, cy: 362))
        #expect(calibration.size == PixelSize(width: 1280, height: 720))
    }

    @Test func calibrationIsScaledToTheNegotiatedSize() throws {
        let source = CameraIntrinsicsSource(calibration: try CameraCalibration.load(try write(Self.yaml, "c.yml")))
        let info = source.cameraInformation(size: PixelSize(width: 640, height: 360))
        #expect(info.intrinsics == CameraIntrinsics(fx: 450, fy: 452.5, cx: 320.75, cy: 181))
        #expect(info.referenceDimensions == PixelSize(width: 640, height: 360))
    }

    @Test func fieldOfViewWhenThereIsNoCalibration() {
        let info = CameraIntrinsicsSource(fieldOfView: 90).cameraInformation(size: PixelSize(width: 1000, height: 500))
        #expect(abs(info.intrinsics.fx - 500) < 1e-9 && info.intrinsics.cx == 500)
        let typical = CameraIntrinsicsSource().cameraInformation(size: PixelSize(width: 1280, height: 720))
        #expect(abs(typical.intrinsics.horizontalFieldOfView * 180 / .pi - 70) < 1e-9)
    }

    @Test func zoomLengthensTheFocalLength() {
        let source = CameraIntrinsicsSource(fieldOfView: 90)
        let wide = source.cameraInformation(size: PixelSize(width: 1000, height: 500), zoom: (100, 100))
        let tele = source.cameraInformation(size: PixelSize(width: 1000, height: 500), zoom: (250, 100))
        #expect(abs(tele.intrinsics.fx - 2.5 * wide.intrinsics.fx) < 1e-9 && tele.intrinsics.cx == wide.intrinsics.cx)
    }

    @Test func badCalibrationSaysWhy() throws {
        let path = try write("%YAML:1.0\n---\nimage_width: 10\n", "bad.yml")
        #expect {
            try CameraCalibration.load(path)
        } throws: { error in
            (error as? FrameSourceError)?.message.contains("no camera_matrix") == true
        }
        #expect(throws: FrameSourceError.self) { try CameraCalibration.load("/nonexistent/calib.yml") }
    }
}
