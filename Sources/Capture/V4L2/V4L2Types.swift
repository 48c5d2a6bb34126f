import CV4L2
import Foundation

/// A pixel format as a four-character code ("MJPG", "YUYV").
public struct FourCC: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    public init(_ text: String) {
        rawValue = text.utf8.prefix(4).enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    public var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) }, as: UTF8.self)
            .trimmingCharacters(in: .whitespaces)
    }

    public init(from decoder: any Decoder) throws { self.init(try decoder.singleValueContainer().decode(String.self)) }
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    public static let mjpeg = FourCC(CV4L2_PIX_FMT_MJPEG)
    public static let jpeg = FourCC(CV4L2_PIX_FMT_JPEG)
    public static let yuyv = FourCC(CV4L2_PIX_FMT_YUYV)
    public static let bgr24 = FourCC(CV4L2_PIX_FMT_BGR24)
    public static let rgb24 = FourCC(CV4L2_PIX_FMT_RGB24)
    public static let grey = FourCC(CV4L2_PIX_FMT_GREY)
    public static let nv12 = FourCC(CV4L2_PIX_FMT_NV12)
    public static let yuv420 = FourCC(CV4L2_PIX_FMT_YUV420)

    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }
}

public struct V4L2FrameSize: Codable, Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Frame rates offered at this size (frames per second), fastest first.
    public var frameRates: [Double]

    public init(width: Int, height: Int, frameRates: [Double]) {
        self.width = width
        self.height = height
        self.frameRates = frameRates
    }
}

public struct V4L2FormatInfo: Codable, Sendable, Hashable {
    public var fourcc: FourCC
    public var description: String
    public var compressed: Bool
    /// Offered by libv4lconvert rather than the camera itself.
    public var emulated: Bool
    public var sizes: [V4L2FrameSize]

    public init(fourcc: FourCC, description: String, compressed: Bool, emulated: Bool, sizes: [V4L2FrameSize]) {
        self.fourcc = fourcc
        self.description = description
        self.compressed = compressed
        self.emulated = emulated
        self.sizes = sizes
    }
}

public struct V4L2ControlInfo: Codable, Sendable, Hashable {
    public var id: UInt32
    /// The driver's name, e.g. "Pan, Absolute".
    public var name: String
    /// The name as a key: lower case, words joined by "_" ("pan_absolute").
    public var key: String
    public var type: String
    public var minimum: Int64
    public var maximum: Int64
    public var step: UInt64
    public var defaultValue: Int64
    public var value: Int64?
    public var menu: [V4L2MenuEntry]
    public var readOnly: Bool
    public var inactive: Bool

    /// "Pan, Absolute" → "pan_absolute".
    public static func key(for name: String) -> String {
        var key = ""
        var pendingSeparator = false
        for c in name.lowercased() {
            if c.isLetter || c.isNumber {
                if pendingSeparator && !key.isEmpty { key.append("_") }
                key.append(c)
                pendingSeparator = false
            } else {
                pendingSeparator = true
            }
        }
        return key
    }
}

public struct V4L2MenuEntry: Codable, Sendable, Hashable {
    public var index: Int64
    public var name: String
}

public struct V4L2DeviceInfo: Codable, Sendable {
    public var path: String
    public var stableNames: [String]
    public var card: String
    public var driver: String
    public var busInfo: String
    public var capabilities: [String]
    public var isVideoCapture: Bool
    public var formats: [V4L2FormatInfo]
    public var controls: [V4L2ControlInfo]

    public init(
        path: String, stableNames: [String], card: String, driver: String, busInfo: String, capabilities: [String],
        isVideoCapture: Bool, formats: [V4L2FormatInfo], controls: [V4L2ControlInfo]
    ) {
        self.path = path
        self.stableNames = stableNames
        self.card = card
        self.driver = driver
        self.busInfo = busInfo
        self.capabilities = capabilities
        self.isVideoCapture = isVideoCapture
        self.formats = formats
        self.controls = controls
    }
}

/// Reads a fixed-size C char array (imported as a tuple) as a String.
package func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
