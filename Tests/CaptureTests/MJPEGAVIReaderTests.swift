import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

/// MJPEG AVI files read from their chunks, without FFmpeg.
@Suite(.tags(.unit)) struct MJPEGAVIReaderTests {
    /// FFmpeg's demuxer (through OpenCV, in the media library) and the chunk reader give the same
    /// frames, byte for byte, of a file FFmpeg's muxer wrote.
    @Test func framesAreFFmpegsByteForByte() throws {
        let path = try VideoFileSourceTests.writeClip(count: 9, fps: 15)
        let reader = try MJPEGAVIReader(path: path)
        #expect(reader.width == 640 && reader.height == 480 && reader.frameRate == 15 && reader.frameCount == 9)
        var ours: [[UInt8]] = []
        while let packet = reader.nextPacket() { ours.append(packet) }
        let ffmpeg = try MJPEGPackets.readThroughOpenCV(path: path)
        let same = ours == ffmpeg
        #expect(ours.count == 9 && same)
        #expect(reader.nextPacket() == nil, "the end stays the end")
    }

    @Test func aTruncatedFileEndsAtTheLastWholeFrame() throws {
        let path = try VideoFileSourceTests.writeClip(count: 6)
        let whole = try MJPEGPackets.read(path: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Cut inside the fifth frame's scan (its headers are the same as every frame's).
        let fifth = try #require(bytes.range(of: Data(whole[4][1000..<1064])))
        try bytes.prefix(fifth.lowerBound).write(to: URL(fileURLWithPath: path))
        let reader = try MJPEGAVIReader(path: path)
        var packets: [[UInt8]] = []
        while let packet = reader.nextPacket() { packets.append(packet) }
        let wholeFramesKept = packets == Array(whole.prefix(4))
        #expect(packets.count == 4 && wholeFramesKept)
    }

    /// A hand-built file: a `rec ` group, an audio chunk to skip, a chunk size that points past
    /// the end, and an OpenDML continuation part.
    @Test func openDMLPartsAndGroupsAreFollowedAndStrayChunksSkipped() throws {
        let jpeg = { (n: UInt8) -> [UInt8] in [0xFF, 0xD8, n, n, 0xFF, 0xD9] }
        let first = AVIBytes.list(
            "movi",
            AVIBytes.chunk("00dc", jpeg(1)) + AVIBytes.chunk("01wb", [1, 2, 3])
                + AVIBytes.list("rec ", AVIBytes.chunk("00dc", jpeg(2))))
        let second = AVIBytes.list("movi", AVIBytes.chunk("00db", jpeg(3)) + AVIBytes.chunk("00dc", jpeg(4)))
        let file =
            AVIBytes.riff("AVI ", AVIBytes.headers(width: 32, height: 24, rate: 10) + first)
            + AVIBytes.riff("AVIX", second)
        let path = Fixtures.temporaryDirectory("avi") + "/opendml.avi"
        try Data(file).write(to: URL(fileURLWithPath: path))
        let reader = try MJPEGAVIReader(path: path)
        #expect(reader.width == 32 && reader.height == 24 && reader.frameRate == 10)
        var packets: [[UInt8]] = []
        while let packet = reader.nextPacket() { packets.append(packet) }
        #expect(packets == [jpeg(1), jpeg(2), jpeg(3), jpeg(4)])

        // A chunk whose size runs past its list ends the frames there.
        var damaged = file
        let at = try #require(Self.firstIndex(of: Array("00dc".utf8), in: damaged))
        damaged.replaceSubrange((at + 4)..<(at + 8), with: [0xFF, 0xFF, 0xFF, 0x0F])
        try Data(damaged).write(to: URL(fileURLWithPath: path))
        let broken = try MJPEGAVIReader(path: path)
        #expect(broken.nextPacket() == nil)
    }

    @Test func otherFilesAreLeftToFFmpeg() throws {
        let directory = Fixtures.temporaryDirectory("avi")
        let text = directory + "/notes.avi"
        try Data("hello".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: MJPEGAVIReader.ReadError.notMJPEGAVI("\(text) is not an AVI file")) {
            try MJPEGAVIReader(path: text)
        }
        let h264 = AVIBytes.riff("AVI ", AVIBytes.headers(width: 32, height: 24, rate: 10, codec: "H264"))
        let other = directory + "/h264.avi"
        try Data(h264).write(to: URL(fileURLWithPath: other))
        #expect(throws: MJPEGAVIReader.ReadError.notMJPEGAVI("\(other) holds video other than MJPEG")) {
            try MJPEGAVIReader(path: other)
        }
    }

    static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        bytes.indices.first { bytes[$0...].starts(with: needle) }
    }
}

/// RIFF pieces for hand-built AVI files.
enum AVIBytes {
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + le32(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }
    static func list(_ type: String, _ body: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + body) }
    static func riff(_ type: String, _ body: [UInt8]) -> [UInt8] { chunk("RIFF", Array(type.utf8) + body) }
    static func headers(width: Int, height: Int, rate: Int, codec: String = "MJPG") -> [UInt8] {
        let avih =
            le32(1_000_000 / rate) + [UInt8](repeating: 0, count: 28) + le32(width) + le32(height)
            + [UInt8](repeating: 0, count: 16)
        let strh =
            Array("vids".utf8) + Array(codec.utf8) + [UInt8](repeating: 0, count: 12) + le32(1) + le32(rate)
            + le32(0) + le32(0) + [UInt8](repeating: 0, count: 20)
        let strf =
            le32(40) + le32(width) + le32(height) + [1, 0, 24, 0] + Array(codec.utf8)
            + [UInt8](repeating: 0, count: 20)
        return list("hdrl", chunk("avih", avih) + list("strl", chunk("strh", strh) + chunk("strf", strf)))
    }
}
