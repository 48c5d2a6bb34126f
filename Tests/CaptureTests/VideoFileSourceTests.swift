import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

@Suite(.tags(.unit)) struct VideoFileSourceTests {
    /// Writes `count` frames of the astronaut, shifted a little each frame, as an MJPEG AVI.
    static func writeClip(count: Int, fps: Double = 25) throws -> String {
        let photo = try Fixtures.photo("astronaut.png").resized(to: PixelSize(width: 640, height: 480))
        let path = Fixtures.temporaryDirectory("clip") + "/clip.avi"
        let writer = try VideoWriter(path: path, size: photo.size, fps: fps)
        for i in 0..<count {
            var frame = photo
            frame.drawRect(PixelRect(x: Double(10 * i), y: 10, width: 20, height: 20), color: .red, thickness: -1)
            try writer.write(frame)
        }
        writer.close()
        return path
    }

    @Test func readsMJPEGThroughTurboJPEGAtReducedScale() throws {
        let path = try Self.writeClip(count: 12)
        let source = try VideoFileSource(path: path, scale: .half, origin: MonotonicInstant(seconds: 100))
        #expect(source.isMJPEG)
        #expect(source.size == PixelSize(width: 320, height: 240))
        #expect(source.nominalFrameRate == 25)
        var frames: [Frame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        #expect(frames.count == 12)
        #expect(frames.map(\.stamp.sequence) == Array(0..<12))
        for (i, frame) in frames.enumerated() {
            #expect(frame.size == PixelSize(width: 320, height: 240))
            #expect(abs(frame.stamp.time.seconds - (100 + Double(i) / 25)) < 1e-6)
        }
        // The red square drawn at x = 10·i is where it was drawn (half scale: 5·i + 5, 10).
        let last = frames[11]
        let offset = (10 * last.width + (5 * 11 + 5)) * 3
        #expect(last.pixels[offset + 2] > 180 && last.pixels[offset] < 90)
        #expect(source.droppedFrames == 0)
    }

    @Test func corruptFrameIsDroppedAndCounted() throws {
        let path = try Self.writeClip(count: 6)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        // Find the third JPEG (start-of-image marker) and cut its scan short with an end marker.
        var starts: [Int] = []
        for i in 0..<(bytes.count - 2) where bytes[i] == 0xFF && bytes[i + 1] == 0xD8 && bytes[i + 2] == 0xFF {
            starts.append(i)
        }
        #expect(starts.count >= 6)
        let cut = starts[2] + (starts[3] - starts[2]) / 2
        bytes[cut] = 0xFF
        bytes[cut + 1] = 0xD9
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let source = try VideoFileSource(path: path)
        var sequences: [UInt64] = []
        while let frame = try source.nextFrame() { sequences.append(frame.stamp.sequence) }
        #expect(source.droppedFrames == 1)
        #expect(sequences == [0, 1, 3, 4, 5])
    }

    @Test func missingFileSaysSo() {
        #expect {
            try VideoFileSource(path: "/nonexistent/video.avi")
        } throws: { error in
            (error as? FrameSourceError)?.message.contains("no such file") == true
        }
    }

    @Test func nonVideoFileSaysSo() throws {
        let path = Fixtures.temporaryDirectory("notvideo") + "/notes.avi"
        try Data("hello, this is text".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try VideoFileSource(path: path)
        } throws: { error in
            (error as? FrameSourceError)?.message.contains("cannot open video") == true
        }
    }
}
