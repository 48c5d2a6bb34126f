import DockCore
import Foundation

/// Head yaw from YuNet's five landmarks.
///
/// Turning the head moves the nose tip sideways relative to the eyes and the mouth by about
/// depth·sin(yaw), while the eye span shrinks with cos(yaw); so the nose offset divided by the
/// eye span is proportional to tan(yaw). The nose tip stands about 0.55 eye spans in front of the
/// eye plane on an average adult face.
public enum FaceYaw {
    static let noseDepthPerEyeSpan = 0.55

    /// Radians; 0 faces the camera, positive when the face turns toward the image's right.
    /// nil without the five landmarks or with a degenerate eye span.
    public static func estimate(landmarks: [PixelPoint]) -> Double? {
        guard landmarks.count == 5 else { return nil }
        let (rightEye, leftEye, nose, rightMouth, leftMouth) = (
            landmarks[0], landmarks[1], landmarks[2], landmarks[3], landmarks[4]
        )
        let eyeSpan = hypot(leftEye.x - rightEye.x, leftEye.y - rightEye.y)
        guard eyeSpan > 1e-6 else { return nil }
        // The face's own vertical line: midway between eye centre and mouth centre.
        let axisX = ((rightEye.x + leftEye.x) / 2 + (rightMouth.x + leftMouth.x) / 2) / 2
        let ratio = (nose.x - axisX) / eyeSpan
        return atan(ratio / noseDepthPerEyeSpan)
    }
}
