import Audio
import Bench
import DockCore
import Foundation
import Pipeline

/// `dockctl listen`: records from a microphone for a few seconds and says what OpenDock hears —
/// the device's format, blocks and overruns, how much of the time was speech and from which
/// direction — the way `dockctl capture` checks a camera.
public struct ListenCommand {
    public var device = "default"
    public var seconds = 3.0
    public var array = MicrophoneArray()
    public var json = false
    /// ALSA configuration text instead of the system's (tests).
    public var alsaConfiguration: String?

    public static let help = """
        dockctl listen — record from a microphone and report voice activity and direction.

        Usage: dockctl listen [--device NAME|CARD] [--seconds S] [--mic-spacing M]
                              [--mic-order left-right|right-left] [--json]
          --device NAME|CARD   ALSA capture device (default: default; a bare number N is card N shared through dsnoop)
          --seconds S          how long to listen (default 3)
          --mic-spacing M      distance between the two microphones (default 0.15)
          --mic-order ORDER    which channel is which microphone (default left-right); a voice
                               from your right reported left means the pair is right-left
        """

    public init(arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ name: String) throws(UsageError) -> String {
            guard let v = rest.popFirst() else { throw UsageError("\(name) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--device":
                let text = try value(argument)
                device = CaptureDeviceName.resolve(text)
            case "--seconds":
                let text = try value(argument)
                guard let s = Double(text), s > 0, s <= 3600 else {
                    throw UsageError("--seconds expects up to 3600, got '\(text)'")
                }
                seconds = s
            case "--mic-spacing":
                let text = try value(argument)
                guard let m = Double(text), (0.02...2).contains(m) else {
                    throw UsageError("--mic-spacing expects 0.02 to 2 metres, got '\(text)'")
                }
                array.spacing = m
            case "--mic-order":
                let text = try value(argument)
                guard let order = MicrophoneArray.ChannelOrder(rawValue: text) else {
                    throw UsageError("--mic-order expects left-right or right-left, got '\(text)'")
                }
                array.order = order
            case "--json": json = true
            default: throw UsageError("unknown listen option '\(argument)' (see dockctl listen --help)")
            }
        }
    }

    public struct Report: Codable, Sendable {
        public var device: String
        public var summary: String
        public var seconds: Double
        public var blocks: Int
        public var overruns: Int
        public var timelineRestarts: Int
        public var speechShare: Double
        /// Median direction of the speech heard, degrees (positive right); nil for mono or no speech.
        public var directionDegrees: Double?
        public var peakLevelDecibels: Double
        /// What is wrong with the microphone (muted, clipping, mono on two channels), one line each.
        public var problems: [String]
    }

    public func run() throws(SessionError) -> Report {
        let source: ALSACaptureSource
        var analyzer: SpeechAnalyzer
        do {
            source = try ALSACaptureSource(device: device, configuration: alsaConfiguration)
            analyzer = try SpeechAnalyzer(
                sampleRate: source.sampleRate, channelCount: source.channelCount, array: array)
        } catch {
            throw SessionError(error.message)
        }
        var blocks = 0
        var captured = 0.0
        var peak: Float = 0
        var windows: [AudioWindow] = []
        var check = MicrophoneCheck()
        var problems: [String] = []
        var last = MonotonicInstant.zero
        while captured < seconds {
            let block: AudioBlock
            do {
                guard let next = try source.nextBlock() else { break }
                block = next
            } catch {
                throw SessionError(error.message)
            }
            blocks += 1
            captured += block.duration
            peak = max(peak, block.channels.flatMap { $0 }.map(abs).max() ?? 0)
            problems += check.inspect(block).map { $0.message(device: device) }
            analyzer.append(block)
            last = block.start.advanced(bySeconds: block.duration)
            windows += analyzer.windows(until: last)
        }
        let speech = windows.filter(\.isSpeech)
        let directions = speech.compactMap(\.direction).map { $0 * 180 / .pi }
        return Report(
            device: device, summary: source.summary, seconds: captured, blocks: blocks, overruns: source.overruns,
            timelineRestarts: analyzer.restarts,
            speechShare: windows.isEmpty ? 0 : Double(speech.count) / Double(windows.count),
            directionDegrees: directions.isEmpty ? nil : Percentiles(directions).median,
            peakLevelDecibels: 20 * log10(Double(max(peak, 1e-6))), problems: problems)
    }

    public static func describe(_ r: Report) -> String {
        let direction = r.directionDegrees.map { String(format: "%+.1f°", $0) } ?? "-"
        return """
            \(r.summary)
            \(String(format: "%.2f", r.seconds)) s in \(r.blocks) blocks; overruns \(r.overruns), timeline restarts \(r.timelineRestarts)
            peak level \(String(format: "%.1f", r.peakLevelDecibels)) dBFS; speech \(String(format: "%.0f", r.speechShare * 100)) % of the time, from \(direction)
            """ + r.problems.map { "\n" + $0 }.joined()
    }
}
