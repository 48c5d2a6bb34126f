import Capture
import DockCore
import Foundation
import Imaging
import TestSupport
import Testing

/// The annotated video's own AVI writer, read back by OpenDock's RIFF reader and by FFmpeg
/// (through OpenCV), which share no code with it.
@Suite(.tags(.unit)) struct MJPEGAVIWriterTests {
    /// A picture that changes with `i`: a bright bar that walks across a gradient.
    func frame(_ i: Int, size: PixelSize = PixelSize(width: 64, height: 48)) -> Frame {
        var f = Frame(
            stamp: FrameStamp(sequence: UInt64(i), time: MonotonicInstant(nanoseconds: 0)), width: size.width,
            height: size.height, format: .bgr)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let bar = abs(x - (i * 3) % size.width) < 4
                let v = UInt8(bar ? 250 : (x * 3 + y) % 200)
                let p = (y * size.width + x) * 3
                (f.pixels[p], f.pixels[p + 1], f.pixels[p + 2]) = (v, v / 2, 255 - v)
            }
        }
        return f
    }

    func folder(_ name: String) -> String { Fixtures.temporaryDirectory(name) }

    @Test func bothReadersReadEveryFrame() throws {
        let path = folder("avi-writer") + "/clip.avi"
        let writer = try MJPEGAVIWriter(path: path, size: PixelSize(width: 64, height: 48), fps: 30)
        for i in 0..<45 { try writer.write(frame(i)) }
        writer.close()
        let reader = try MJPEGAVIReader(path: path)
        #expect(reader.width == 64 && reader.height == 48 && reader.frameRate == 30 && reader.frameCount == 45)
        var packets = 0
        while let packet = reader.nextPacket() {
            #expect(packet.prefix(2) == [0xFF, 0xD8])
            packets += 1
        }
        #expect(packets == 45)
        let clip = try VideoClip.read(path: path)
        #expect(clip.frames.count == 45 && abs(clip.frameRate - 30) < 1e-6)
        // The pictures are the ones written, within JPEG's loss.
        let original = frame(20)
        let decoded = clip.frames[20]
        let error = zip(original.pixels, decoded.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(decoded.size == original.size && Double(error) / Double(original.pixels.count) < 12)
    }

    /// Headers are kept up to date as the file grows: a file never closed still plays.
    @Test func aFileCutShortStillPlays() throws {
        let path = folder("avi-cut") + "/cut.avi"
        let writer = try MJPEGAVIWriter(path: path, size: PixelSize(width: 64, height: 48), fps: 25)
        for i in 0..<60 { try writer.write(frame(i)) }
        let copy = path + ".copy.avi"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        // The index waits beside the file until the end, not in memory.
        #expect(FileManager.default.fileExists(atPath: path + ".idx"))
        writer.close()
        #expect(!FileManager.default.fileExists(atPath: path + ".idx"))
        #expect(try MJPEGAVIReader(path: copy).frameCount == 60)
        #expect(try VideoClip.read(path: copy).frames.count == 60)
    }

    /// A recording that outgrows a file goes on in the next one; no frame is lost between them.
    @Test func aLongRecordingGoesOnInNumberedFiles() throws {
        let base = folder("avi-parts") + "/long"
        let writer = try MJPEGAVIWriter(
            path: base + ".avi", size: PixelSize(width: 64, height: 48), fps: 30, fileLimit: 40_000)
        for i in 0..<100 { try writer.write(frame(i)) }
        writer.close()
        let files =
            [base + ".avi"] + (2...9).map { "\(base)-\($0).avi" }.filter { FileManager.default.fileExists(atPath: $0) }
        #expect(files.count >= 3 && writer.path == files.last)
        var total = 0
        for file in files {
            let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            #expect(size <= 40_000, "\(file)")
            total += try VideoClip.read(path: file).frames.count
        }
        #expect(total == 100 && writer.framesWritten == 100)
        let left = try FileManager.default.contentsOfDirectory(atPath: (base as NSString).deletingLastPathComponent)
        #expect(!left.contains { $0.hasSuffix(".idx") }, "\(left)")
    }

    /// With a budget, the recording keeps its newest parts only: the oldest files go, what is
    /// left fits the budget, and every file left still plays.
    @Test func aKeptRecordingRemovesItsOldestParts() throws {
        let base = folder("avi-kept") + "/kept"
        let writer = try MJPEGAVIWriter(
            path: base + ".avi", size: PixelSize(width: 64, height: 48), fps: 30, keepBytes: 80_000)
        #expect(writer.fileLimit == 20_000)
        for i in 0..<300 { try writer.write(frame(i)) }
        writer.close()
        let parts = (1...60).map { $0 == 1 ? base + ".avi" : "\(base)-\($0).avi" }
        let kept = parts.filter { FileManager.default.fileExists(atPath: $0) }
        let numbers = kept.compactMap { parts.firstIndex(of: $0) }
        // The newest parts, without a gap, ending with the one being written.
        #expect(writer.partsRemoved >= 4 && !kept.contains(base + ".avi") && kept.last == writer.path)
        #expect(numbers == Array(numbers[0]..<(numbers[0] + kept.count)))
        #expect(writer.partsRemoved == numbers[0])
        var bytes = 0
        var frames = 0
        for file in kept {
            bytes += (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            frames += try VideoClip.read(path: file).frames.count
        }
        #expect(bytes <= 80_000 && frames > 0 && frames < 300)
    }

    /// A full disk fails the write that meets it, with the system's reason; a folder that
    /// cannot hold the file fails at the start.
    @Test func aFullDiskFailsTheWrite() throws {
        let path = folder("avi-full") + "/full.avi"
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/full")
        let writer = try MJPEGAVIWriter(path: path, size: PixelSize(width: 64, height: 48), fps: 30)
        #expect {
            try writer.write(frame(0))
        } throws: { error in
            "\(error)" == "\(path): No space left on device"
        }
        #expect(writer.framesWritten == 0)
        #expect(throws: ImagingError.self) {
            _ = try MJPEGAVIWriter(path: "/nonexistent-folder/v.avi", size: PixelSize(width: 64, height: 48), fps: 30)
        }
    }

    @Test func aFrameOfAnotherSizeIsRefused() throws {
        let path = folder("avi-size") + "/size.avi"
        let writer = try MJPEGAVIWriter(path: path, size: PixelSize(width: 64, height: 48), fps: 30)
        #expect(throws: ImagingError.self) { try writer.write(frame(0, size: PixelSize(width: 32, height: 24))) }
    }
}
