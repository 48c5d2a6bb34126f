import Audio
import DockCore
import Foundation
import Pipeline
import Simulation
import Synchronization

/// Live microphones: the capture thread's queue, drained by the perception step.
final class MicrophoneInput: AudioInput {
    let thread: AudioCaptureThread
    let device: String
    /// Read by the perception thread only.
    private var check = MicrophoneCheck()
    private let found = Mutex<[String]>([])

    init(thread: AudioCaptureThread, device: String) {
        self.thread = thread
        self.device = device
    }

    func blocks(until now: MonotonicInstant, yaw: Double) -> [AudioBlock] {
        let blocks = thread.drain()
        for block in blocks {
            for problem in check.inspect(block) { found.withLock { $0.append(problem.message(device: device)) } }
        }
        return blocks
    }

    func takeProblems() -> [String] {
        found.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
    }

    var endedReason: String? {
        let ended = thread.ended
        return ended.closed ? (ended.reason?.message ?? "the device ended") : nil
    }

    var blockCounts: (received: Int, dropped: Int)? { (thread.received, thread.dropped) }

    deinit { thread.stop() }
}

/// A generated scene heard by microphones on the camera: rendered up to `now` with the head's
/// yaw taken as moving linearly since the last call; `channelsSwapped`: a pair wired right, left.
final class SceneSoundInput: AudioInput {
    private let sound: SceneSound
    private let array: MicrophoneArray
    private let channelsSwapped: Bool
    private var rendered = 0
    private var lastYaw: (time: Double, yaw: Double)?

    init(sound: SceneSound, array: MicrophoneArray, channelsSwapped: Bool = false) {
        self.sound = sound
        self.array = array
        self.channelsSwapped = channelsSwapped
    }

    func blocks(until now: MonotonicInstant, yaw: Double) -> [AudioBlock] {
        let time = now.seconds(since: .zero)
        let end = min(sound.frameCount, Int(time * sound.sampleRate))
        guard end > rendered else { return [] }
        let from = lastYaw ?? (time, yaw)
        let span = time - from.time
        var channels = sound.render(rendered..<end, array: array) { t in
            span > 0 ? from.yaw + (yaw - from.yaw) * min(1, max(0, (t - from.time) / span)) : yaw
        }
        if channelsSwapped { channels.reverse() }
        let block = AudioBlock(
            channels: channels, sampleRate: sound.sampleRate,
            start: MonotonicInstant.zero.advanced(bySeconds: Double(rendered) / sound.sampleRate), sequence: rendered)
        rendered = end
        lastYaw = (time, yaw)
        return [block]
    }

    var endedReason: String? { nil }
    var blockCounts: (received: Int, dropped: Int)? { nil }
    func takeProblems() -> [String] { [] }
}

/// A looping scene's sound: the clip heard again with each pass of the scene, on one continuous
/// timeline (the frames' times go on rising as the scene starts over). A clip shorter than a
/// pass is followed by silence; a longer one is cut at the pass's end.
final class LoopingClipInput: AudioInput {
    private let clip: AudioClip
    /// Samples in one pass of the scene.
    private let pass: Int
    private var delivered = 0
    private var sequence = 0

    init(clip: AudioClip, passSeconds: Double) {
        self.clip = clip
        pass = max(1, Int((passSeconds * clip.sampleRate).rounded()))
    }

    func blocks(until now: MonotonicInstant, yaw: Double) -> [AudioBlock] {
        let end = Int(now.seconds(since: clip.start) * clip.sampleRate)
        var out: [AudioBlock] = []
        while delivered < end {
            let offset = delivered % pass
            let count = min(end - delivered, pass - offset)
            let heard = max(0, min(count, clip.frameCount - offset))
            let channels = clip.channels.map { samples in
                Array(samples[min(offset, samples.count)..<(min(offset, samples.count) + heard)])
                    + [Float](repeating: 0, count: count - heard)
            }
            out.append(
                AudioBlock(
                    channels: channels, sampleRate: clip.sampleRate,
                    start: clip.start.advanced(bySeconds: Double(delivered) / clip.sampleRate), sequence: sequence))
            sequence += 1
            delivered += count
        }
        return out
    }

    var endedReason: String? { nil }
    var blockCounts: (received: Int, dropped: Int)? { nil }
    func takeProblems() -> [String] { [] }
}
