import DockCore
import Foundation
import TestSupport
import Testing

@testable import Audio

/// ALSA capture for real, without a sound card: ALSA's own `file` plugin feeds a capture PCM
/// from a raw file (over the `null` plugin), configured by text the way asound.conf would be.
@Suite(.tags(.device)) struct ALSACaptureTests {
    /// Faint hiss, then from 0.25 s a voiced sound, the right channel `lag` samples behind the left, as raw
    /// interleaved 16-bit little-endian samples; returns the path and the samples written.
    static func rawRecording(seconds: Double, lag: Int, in directory: String) throws -> (
        path: String, left: [Int16], right: [Int16]
    ) {
        let rate = 48000.0
        var random = SeededGenerator(seed: 11)
        let count = Int(seconds * rate)
        let source: [Double] = (0..<count + lag).map { n in
            let t = Double(n) / rate
            let voice =
                t < 0.25
                ? 0 : (1...6).reduce(0.0) { $0 + sin(2 * .pi * 140 * Double($1) * t + Double($1)) / Double($1) }
            return 0.25 * voice + Double.random(in: -0.005...0.005, using: &random)
        }
        let left = (0..<count).map { Int16(source[$0 + lag] * 32767) }
        let right = (0..<count).map { Int16(source[$0] * 32767) }
        var bytes = Data(capacity: count * 4)
        for n in 0..<count {
            for value in [left[n], right[n]] {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        let path = directory + "/speech.raw"
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, left, right)
    }

    /// `cam`: stereo from the file; `mono`: a one-channel device (the multi plugin binds one).
    static func configuration(infile: String) -> String {
        """
        pcm.cam { type file slave.pcm { type null } file "/dev/null" infile "\(infile)" format raw }
        pcm.mono { type multi slaves.a.pcm cam slaves.a.channels 1 bindings.0.slave a bindings.0.channel 0 }
        """
    }

    @Test func capturesTheFileSampleForSampleWithTimestamps() throws {
        let recording = try Self.rawRecording(seconds: 0.5, lag: 4, in: Fixtures.temporaryDirectory("alsa"))
        let source = try ALSACaptureSource(device: "cam", configuration: Self.configuration(infile: recording.path))
        #expect(source.channelCount == 2 && source.sampleRate == 48000)
        #expect(source.summary == "ALSA 'cam': 2 channels at 48000 Hz")
        var left: [Float] = []
        var right: [Float] = []
        var previous: AudioBlock?
        while left.count < 12000 {
            let block = try #require(try source.nextBlock())
            left += block.channels[0]
            right += block.channels[1]
            if let previous {
                #expect(block.sequence == previous.sequence + 1)
                #expect(block.start >= previous.start)
            }
            #expect(!block.followsGap)
            previous = block
        }
        for n in 0..<12000 {
            #expect(left[n] == Float(recording.left[n]) / 32768 && right[n] == Float(recording.right[n]) / 32768)
            if left[n] != Float(recording.left[n]) / 32768 { break }
        }
    }

    @Test func monoDeviceOpensWithOneChannel() throws {
        let recording = try Self.rawRecording(seconds: 0.1, lag: 0, in: Fixtures.temporaryDirectory("alsa"))
        let source = try ALSACaptureSource(device: "mono", configuration: Self.configuration(infile: recording.path))
        #expect(source.channelCount == 1)
        #expect(try source.nextBlock()?.channels.count == 1)
    }

    @Test func missingDeviceAndBrokenConfigurationAreOneLineErrors() {
        #expect {
            try ALSACaptureSource(device: "nosuch", configuration: Self.configuration(infile: "/dev/null"))
        } throws: { error in
            let message = (error as? AudioError)?.message ?? ""
            return message.hasPrefix("no ALSA capture device 'nosuch'") && message.contains("arecord -L")
                && !message.contains("\n")
        }
        #expect { try ALSACaptureSource(device: "cam", configuration: "pcm.cam { type file") } throws: { error in
            (error as? AudioError)?.message.contains("configuration does not parse") == true
        }
    }

    /// The capture thread hands every block over in order, and the speech in it is heard from
    /// the right direction: 4 samples' lead on the left at 48 kHz, 15 cm apart.
    @Test func captureThreadFeedsTheAnalyzer() throws {
        let recording = try Self.rawRecording(seconds: 1.0, lag: 4, in: Fixtures.temporaryDirectory("alsa"))
        let configuration = Self.configuration(infile: recording.path)
        let thread = AudioCaptureThread(capacitySeconds: 5) { () throws(AudioError) -> any AudioSource in
            try ALSACaptureSource(device: "cam", configuration: configuration)
        }
        var blocks: [AudioBlock] = []
        let deadline = Date().addingTimeInterval(10)
        while blocks.reduce(0, { $0 + $1.frameCount }) < 48000, Date() < deadline {
            blocks += thread.drain()
            Thread.sleep(forTimeInterval: 0.005)
        }
        thread.stop()
        #expect(blocks.enumerated().allSatisfy { $0.offset == $0.element.sequence })
        // The file plugin reads as fast as asked, so stamp the blocks as a paced device would.
        let array = MicrophoneArray(spacing: 0.15, mounting: .camera)
        var analyzer = try SpeechAnalyzer(sampleRate: 48000, channelCount: 2, array: array)
        var at = MonotonicInstant(seconds: 100)
        for var block in blocks {
            block.start = at
            analyzer.append(block)
            at = at.advanced(bySeconds: block.duration)
        }
        let windows = analyzer.windows(until: MonotonicInstant(seconds: 101))
        let directions = windows.filter(\.isSpeech).compactMap(\.direction)
        #expect(windows.count >= 45 && directions.count >= 30)
        let expected = array.angle(forDelay: -4 / 48000.0)  // the left hears it first
        let median = directions.sorted()[directions.count / 2..<directions.count / 2 + 1].first ?? .nan
        #expect(abs(median - expected) < 0.02, "median \(median) expected \(expected) \(directions)")
        #expect(analyzer.restarts == 0)
    }

    /// A reader that falls behind loses the oldest blocks, counted, and the first block after
    /// the loss says so.
    @Test func aSlowReaderLosesTheOldestBlocksCounted() throws {
        let recording = try Self.rawRecording(seconds: 0.5, lag: 0, in: Fixtures.temporaryDirectory("alsa"))
        let configuration = Self.configuration(infile: recording.path)
        let thread = AudioCaptureThread(capacitySeconds: 0.1) { () throws(AudioError) -> any AudioSource in
            try ALSACaptureSource(device: "cam", configuration: configuration)
        }
        let deadline = Date().addingTimeInterval(10)
        while thread.received < 30, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        let blocks = thread.drain()
        thread.stop()
        #expect(thread.dropped > 0)
        #expect(blocks.reduce(0.0) { $0 + $1.duration } <= 0.1 + 1e-9)
        #expect(blocks.first?.followsGap == true)
    }

    @Test func aFailingSourceEndsTheThreadWithItsMessage() throws {
        let thread = AudioCaptureThread { () throws(AudioError) -> any AudioSource in
            try ALSACaptureSource(device: "nosuch", configuration: "")
        }
        let deadline = Date().addingTimeInterval(5)
        while !thread.isFinished, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(thread.ended.closed)
        #expect(thread.ended.reason?.message.hasPrefix("no ALSA capture device") == true)
    }
}

@Suite(.tags(.unit)) struct StreamingSpeechAnalyzerTests {
    /// Fed block by block, the analyzer finds the same windows as on the whole recording; a block
    /// after lost samples starts a new timeline.
    @Test func blocksGiveTheSameWindowsAsTheWholeClip() throws {
        var random = SeededGenerator(seed: 2)
        let rate = 48000.0
        let left: [Float] = (0..<48000).map { n in
            let t = Double(n) / rate
            let voice =
                t > 0.3 && t < 0.8
                ? (1...12).reduce(0.0) { $0 + 0.2 * sin(2 * .pi * 160 * Double($1) * t) / Double($1) } : 0
            return Float(voice) + Float.random(in: -0.003...0.003, using: &random)
        }
        let right = FractionalDelay.delayed(left, by: 3)
        let clip = AudioClip(sampleRate: rate, channels: [left, right], start: MonotonicInstant(seconds: 5))
        var whole = try SpeechAnalyzer(clip: clip)
        let expected = whole.windows(until: MonotonicInstant(seconds: 6))

        var streaming = try SpeechAnalyzer(sampleRate: rate, channelCount: 2)
        var found: [AudioWindow] = []
        for (index, from) in stride(from: 0, to: 48000, by: 480).enumerated() {
            streaming.append(
                AudioBlock(
                    channels: [Array(left[from..<from + 480]), Array(right[from..<from + 480])], sampleRate: rate,
                    start: clip.start.advanced(bySeconds: Double(from) / rate), sequence: index))
            // Windows are asked for as time passes, up to the end of what has arrived.
            found += streaming.windows(until: clip.start.advanced(bySeconds: Double(from + 480) / rate))
        }
        // All but the last window, which waits for look-ahead that never comes.
        #expect(found.count == expected.count - 1)
        #expect(zip(found, expected).allSatisfy { $0 == $1 })
        #expect(found.filter(\.isSpeech).count > 20 && found.filter { $0.direction != nil }.count > 20)

        streaming.append(
            AudioBlock(
                channels: [Array(left[0..<1920]), Array(right[0..<1920])], sampleRate: rate,
                start: MonotonicInstant(seconds: 6.01), sequence: 200, followsGap: true))
        #expect(streaming.restarts == 1)
        #expect(
            streaming.windows(until: MonotonicInstant(seconds: 6.04)).map(\.time) == [MonotonicInstant(seconds: 6.02)])
    }
}
