import CALSA
import DockCore
import Foundation

/// A microphone through ALSA: interleaved 16-bit capture in 20 ms periods, stamped on the
/// monotonic clock as the time its first sample reached the converter (read time minus what
/// the block and the samples still queued behind it last).
public final class ALSACaptureSource: AudioSource {
    public let device: String
    public let sampleRate: Double
    public let channelCount: Int
    /// Overruns: times samples were lost because nobody read in time.
    public private(set) var overruns = 0
    private let handle: OpaquePointer
    private let clock: any MonotonicClock
    private let periodFrames: Int
    private var sequence = 0
    private var lostBeforeNext = false
    private var buffer: [Int16]

    /// Opens `device` for capture, asking for 48 kHz stereo. `configuration` is ALSA
    /// configuration text used instead of the system's (tests feed ALSA's `file` plugin this way).
    public init(
        device: String, configuration: String? = nil, rate: Int = 48000, channels: Int = 2,
        clock: any MonotonicClock = SystemMonotonicClock()
    ) throws(AudioError) {
        var opened: OpaquePointer?
        let period = max(64, rate / 50)
        let err = calsa_capture_open(device, configuration, UInt32(rate), UInt32(channels), UInt32(period), &opened)
        guard err == 0, let opened else {
            let text = String(cString: calsa_last_error())
            throw AudioError(
                "\(text); name a capture device from `arecord -L` (for example plughw:CARD=C920) or one defined in asound.conf"
            )
        }
        handle = opened
        self.device = device
        self.clock = clock
        sampleRate = Double(calsa_capture_rate(opened))
        channelCount = Int(calsa_capture_channels(opened))
        periodFrames = period
        buffer = [Int16](repeating: 0, count: period * channelCount)
    }

    deinit { calsa_capture_close(handle) }

    public var summary: String {
        "ALSA '\(device)': \(channelCount) channel\(channelCount == 1 ? "" : "s") at \(Int(sampleRate)) Hz"
    }

    public func nextBlock() throws(AudioError) -> AudioBlock? {
        while true {
            var pending = 0
            let got = buffer.withUnsafeMutableBufferPointer {
                calsa_capture_read(handle, $0.baseAddress, UInt(periodFrames), &pending)
            }
            let readAt = clock.now
            if got == -Int(EPIPE) {
                overruns += 1
                lostBeforeNext = true
                continue
            }
            if got == -Int(ENODEV) {
                throw AudioError(
                    "ALSA device '\(device)' went away (unplugged?); speakers are followed by vision alone until restart"
                )
            }
            if got < 0 {
                throw AudioError("reading ALSA device '\(device)' failed: \(String(cString: strerror(Int32(-got))))")
            }
            if got == 0 { continue }
            let frames = got
            var channels = [[Float]](repeating: [Float](repeating: 0, count: frames), count: channelCount)
            for c in 0..<channelCount {
                for i in 0..<frames { channels[c][i] = Float(buffer[i * channelCount + c]) / 32768 }
            }
            let start = readAt.advanced(bySeconds: -Double(frames + pending) / sampleRate)
            defer {
                sequence += 1
                lostBeforeNext = false
            }
            return AudioBlock(
                channels: channels, sampleRate: sampleRate, start: start, sequence: sequence, followsGap: lostBeforeNext
            )
        }
    }
}
