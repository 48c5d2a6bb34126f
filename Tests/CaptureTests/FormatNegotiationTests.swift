import Capture
import DockCore
import TestSupport
import Testing

@Suite(.tags(.unit)) struct FormatNegotiationTests {
    func format(_ fourcc: FourCC, _ sizes: [(Int, Int, [Double])], emulated: Bool = false) -> V4L2FormatInfo {
        V4L2FormatInfo(
            fourcc: fourcc, description: "\(fourcc)", compressed: fourcc.isJPEG, emulated: emulated,
            sizes: sizes.map { V4L2FrameSize(width: $0.0, height: $0.1, frameRates: $0.2) })
    }
    var request: CaptureRequest { CaptureRequest() }  // 1280x720 @ 30

    @Test func prefersMJPEGAtTheRequestedSizeAndRate() throws {
        let choice = try #require(
            FormatNegotiation.choose(
                from: [
                    format(.yuyv, [(1280, 720, [10]), (640, 480, [30])]),
                    format(.mjpeg, [(640, 480, [30]), (1280, 720, [30, 15])]),
                ], for: request))
        #expect(choice == FormatChoice(fourcc: .mjpeg, width: 1280, height: 720, frameRate: 30))
    }

    @Test func fallsBackToYUYVWhenMJPEGLacksTheSize() throws {
        let choice = try #require(
            FormatNegotiation.choose(
                from: [
                    format(.mjpeg, [(640, 480, [30])]),
                    format(.yuyv, [(1280, 720, [30])]),
                ], for: request))
        #expect(choice.fourcc == .yuyv && choice.width == 1280)
    }

    @Test func takesTheNearestSizeWhenNoneMatches() throws {
        let choice = try #require(
            FormatNegotiation.choose(
                from: [format(.yuyv, [(320, 240, [30]), (1920, 1080, [5]), (800, 600, [20])])],
                for: request))
        #expect(choice.width == 1920 && choice.frameRate == 5)
    }

    @Test func usesLibv4lconvertsFormatsLast() throws {
        let choice = try #require(
            FormatNegotiation.choose(
                from: [
                    format(.bgr24, [(1280, 720, [30])], emulated: true),
                    format(FourCC("H264"), [(1280, 720, [30])]),
                    format(.grey, [(1280, 720, [30])]),
                ], for: request))
        #expect(choice.fourcc == .grey)
    }

    @Test func nothingDecodableIsNil() {
        #expect(FormatNegotiation.choose(from: [format(FourCC("H264"), [(1280, 720, [30])])], for: request) == nil)
    }

    @Test func fourccRoundTrips() {
        #expect(FourCC("MJPG") == .mjpeg && FourCC.mjpeg.description == "MJPG" && FourCC.grey.description == "GREY")
    }
}
