import DockCore
import Foundation

extension DockAccessory {
    public typealias Identifier = AccessoryIdentifier

    public enum ObservationType: Hashable, Sendable {
        case humanFace, humanBody, object
    }

    /// A subject the client saw: a unit rect with a lower-left origin.
    public struct Observation: Sendable {
        /// Apple's path: `DockAccessory.Observation.ObservationType`.
        public typealias ObservationType = DockAccessory.ObservationType
        public var identifier: Int
        public var type: ObservationType
        public var rect: CGRect
        public var faceYawAngle: Measurement<UnitAngle>?

        public init(identifier: Int, type: ObservationType, rect: CGRect, faceYawAngle: Measurement<UnitAngle>? = nil) {
            self.identifier = identifier
            self.type = type
            self.rect = rect
            self.faceYawAngle = faceYawAngle
        }
    }

    public typealias CameraOrientation = DockCore.CameraOrientation

    public enum CameraPosition: Hashable, Sendable { case front, back, unspecified }

    /// What kind of camera made the picture, with Apple's names for the usual ones
    /// (`.builtInWideAngleCamera`, …) where AVFoundation's `AVCaptureDevice.DeviceType` is
    /// missing; on Linux usually a V4L2 path (`"/dev/video0"`, a string literal).
    public struct CaptureDeviceType: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        public static let builtInWideAngleCamera = CaptureDeviceType(rawValue: "builtInWideAngleCamera")
        public static let builtInUltraWideCamera = CaptureDeviceType(rawValue: "builtInUltraWideCamera")
        public static let builtInTelephotoCamera = CaptureDeviceType(rawValue: "builtInTelephotoCamera")
        public static let builtInDualCamera = CaptureDeviceType(rawValue: "builtInDualCamera")
        public static let continuityCamera = CaptureDeviceType(rawValue: "continuityCamera")
        public static let external = CaptureDeviceType(rawValue: "external")
    }

    /// The camera the observations came from, in Apple's shape: the intrinsic matrix K in
    /// pixels of `referenceDimensions`, column-major (`columns.2.x` is cx).
    public struct CameraInformation: Sendable {
        public var captureDevice: CaptureDeviceType?
        public var cameraPosition: CameraPosition
        public var orientation: CameraOrientation
        public var cameraIntrinsics: matrix_float3x3?
        public var referenceDimensions: CGSize?

        public init(
            captureDevice: CaptureDeviceType?, cameraPosition: CameraPosition, orientation: CameraOrientation,
            cameraIntrinsics: matrix_float3x3?, referenceDimensions: CGSize?
        ) {
            self.captureDevice = captureDevice
            self.cameraPosition = cameraPosition
            self.orientation = orientation
            self.cameraIntrinsics = cameraIntrinsics
            self.referenceDimensions = referenceDimensions
        }
    }

    public typealias FramingMode = DockCore.FramingMode

    public typealias Limits = MotionLimits
}

extension DockAccessory.Observation {
    /// The internal form, stamped with the time the client handed it over.
    package func core(stamp: FrameStamp) -> DockCore.Observation {
        let kind: ObservationKind =
            switch type {
            case .humanFace: .humanFace
            case .humanBody: .humanBody
            case .object: .object
            }
        return DockCore.Observation(
            identifier: identifier, kind: kind,
            rect: NormalizedRect(x: rect.origin.x, y: rect.origin.y, width: rect.width, height: rect.height),
            faceYaw: faceYawAngle?.converted(to: .radians).value, stamp: stamp)
    }
}

extension DockAccessory.CameraInformation {
    /// Intrinsics and size the controller needs; a default 70° field of view when the client
    /// gave no intrinsics.
    package func core() throws(DockKitError) -> DockCore.CameraInformation {
        let size: PixelSize
        if let dims = referenceDimensions {
            guard dims.width >= 1, dims.height >= 1, dims.width.isFinite, dims.height.isFinite else {
                throw .invalidParameter
            }
            size = PixelSize(width: Int(dims.width), height: Int(dims.height))
        } else if let k = cameraIntrinsics.map(CameraIntrinsics.init(cameraMatrix:)) {
            size = PixelSize(width: max(1, Int(2 * k.cx)), height: max(1, Int(2 * k.cy)))
        } else {
            size = PixelSize(width: 1920, height: 1080)
        }
        let intrinsics =
            cameraIntrinsics.map(CameraIntrinsics.init(cameraMatrix:))
            ?? CameraIntrinsics(horizontalFieldOfView: 70 * .pi / 180, size: size)
        guard intrinsics.fx > 0, intrinsics.fy > 0 else { throw .invalidParameter }
        return DockCore.CameraInformation(referenceDimensions: size, intrinsics: intrinsics, orientation: orientation)
    }
}
