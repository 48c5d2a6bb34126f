import Bench
import Control
import DockCore
import Foundation
import GroundTruth
import Pipeline
import Rigs
import SceneFiles
import Simulation
import Tracking

/// One named figure of a benchmark run; nil when the scene cannot show it (no steps, no speech…).
public struct BenchFigure: Sendable, Hashable {
    public var key: String
    public var label: String
    public var value: Double?
    /// printf format for one value.
    public var format: String

    /// "-" when not applicable, "never" for a time that never came (settling, re-acquiring).
    public var text: String { value.map { $0.isInfinite ? "never" : String(format: format, $0) } ?? "-" }

    /// For JSON: a number, "never", or null.
    public var jsonValue: Any { value.map { $0.isInfinite ? "never" as Any : $0 as Any } ?? NSNull() }
}

/// One scene run closed-loop with one control law, and its figures.
public struct SceneRun: Sendable {
    public let scene: String
    public let law: String
    public let summary: SessionSummary
    public let evaluation: SceneEvaluation
    public let peakResidentBytes: Double
    public let trackRate: Double
    /// Set when the requested detector was replaced by a fallback; says why.
    public let detectorFallback: String?
    /// The audio the run followed speakers by, or why it went on by vision alone.
    public let audioNote: String?
    /// A digitally framed run's figures, measured on the crop (nil for a gimbal's run).
    public let digitalFraming: DigitalFramingEvaluation?
    /// How well the lens kept the face's size, in a scene whose camera has an optical zoom.
    public var zoom: ZoomEvaluation?
    /// How this run framed its subject.
    public let framing: Framing
    /// The audio front end's own figures against the truth (generated scenes with speech).
    public var audioFrontEnd: AudioFrontEndFigures?
    /// Its scene's truth was proposed by `dockctl label`, unchecked: the figures are only as good.
    public var truthIsProposed = false
    /// A fixed camera's run, which has no head and so none of the head's figures.
    public var fixedCamera: Bool { framing == .fixedCrop }

    /// What frames the subject: the head alone, a crop of a fixed wide camera's picture, or the
    /// head with a crop of its camera's picture (the motors for large moves, the crop for fine).
    public enum Framing: Sendable, CaseIterable {
        case motors, fixedCrop, motorsAndCrop

        /// The run's name in reports: the law's, "digital", or the law's with "+crop".
        public func name(for law: ControlLawChoice) -> String {
            switch self {
            case .motors: law.rawValue
            case .fixedCrop: "digital"
            case .motorsAndCrop: law.rawValue + "+crop"
            }
        }
    }

    /// The fixed camera a digitally framed run looks through: a wide webcam's field of view.
    static let fixedCameraFieldOfView = 90.0

    /// Runs the real pipeline on the scene; `outputVideo` also writes the annotated view;
    /// `measuresAudioFrontEnd` adds the audio front end's figures against the truth.
    public static func run(
        _ scene: BenchScene, base: SessionConfiguration, law: ControlLawChoice, framing: Framing = .motors,
        outputVideo: String? = nil, measuresAudioFrontEnd: Bool = false, stop: StopFlag = StopFlag(),
        progress: ((Double) -> Void)? = nil
    ) throws(SessionError) -> SceneRun {
        var configuration = scene.configuration(base: base)
        configuration.controlLaw = law
        configuration.realTime = false
        configuration.outputVideo = outputVideo
        switch framing {
        case .motors: break
        case .fixedCrop:
            configuration.gimbal = .dryRun
            configuration.viewFieldOfView = Self.fixedCameraFieldOfView
            configuration.digitalFraming = configuration.digitalFraming ?? CropFollower.Settings()
        case .motorsAndCrop:
            configuration.digitalFraming = configuration.digitalFraming ?? CropFollower.Settings()
        }
        let session = try Pipeline(
            simulating: configuration, initialPose: scene.initialPose, truth: scene.labelledTruth)
        let total = session.totalFrames
        let measured = try session.runMeasured(stop: stop) { status in
            if let total, total > 0 { progress?(Double(status.frame) / Double(total)) }
        }
        let summary = measured.summary
        let camera = configuration.viewSize
        let focal = CameraIntrinsics(horizontalFieldOfView: configuration.viewFieldOfView * .pi / 180, size: camera).fx
        let settings = SceneEvaluationSettings(
            viewWidth: Double(camera.width), viewHeight: Double(camera.height), focalLength: focal,
            primaryID: scene.primaryID, steps: scene.steps)
        let crop = configuration.digitalFraming.map {
            DigitalFramingEvaluation(
                samples: measured.frameSamples, primaryID: scene.primaryID, focalLength: focal,
                outputWidth: Double(camera.width), eyeLine: $0.eyeLine)
        }
        var frontEnd: AudioFrontEndFigures?
        // The front end's own figures hear the scene once more, apart from the loop: the bench
        // asks for them, other runs need not pay for them.
        if measuresAudioFrontEnd, configuration.useAudio, configuration.audioFile == nil,
            case .generated(let generated) = scene.world
        {
            frontEnd = try? AudioFrontEndFigures.measure(generated, array: configuration.microphones)
        }
        var run = SceneRun(
            scene: scene.name, law: framing.name(for: law), summary: summary,
            evaluation: SceneEvaluation(samples: measured.frameSamples, settings: settings),
            peakResidentBytes: ProcessResources.peakResidentBytes(), trackRate: configuration.trackRate,
            detectorFallback: session.detectorFallback, audioNote: session.audioNote, digitalFraming: crop,
            framing: framing, audioFrontEnd: frontEnd)
        run.truthIsProposed = scene.truthIsProposed
        // Judged with the zoom on or off alike, so the two can be compared.
        if scene.zoomLens != nil {
            run.zoom = ZoomEvaluation(
                samples: measured.frameSamples, primaryID: scene.primaryID, goal: configuration.zoomFaceShare,
                viewWidth: Double(camera.width), viewHeight: Double(camera.height),
                zoomMoves: summary.zoom?.moves ?? 0, duration: summary.mediaSeconds)
        }
        return run
    }

    /// Calls of `track` made against those the feeder's rate asks for over the media time.
    public var trackRateCompliance: Double? {
        let expected = (summary.mediaSeconds * trackRate).rounded(.down) + 1
        return expected > 0 ? Double(summary.trackCalls) / expected : nil
    }

    public var figures: [BenchFigure] {
        let e = evaluation
        let errors = e.loop.centeringErrors()
        let settles = Percentiles(e.steps.compactMap(\.settleTime))
        let pipeline = summary.timings.percentiles(.pipeline)
        let frame = summary.timings.percentiles(.frame)
        let detect = summary.timings.percentiles(.detect)
        let unsettled = e.steps.contains { $0.settleTime == nil }
        let all: [BenchFigure] =
            [
                BenchFigure(key: "centering_rms_deg", label: "RMS °", value: errors.rootMeanSquare, format: "%.2f"),
                BenchFigure(key: "centering_p95_deg", label: "p95 °", value: errors.value(at: 95), format: "%.2f"),
                BenchFigure(
                    key: "centering_rms_width_pct", label: "RMS %w",
                    value: e.loop.centeringFractions.rootMeanSquare.map { $0 * 100 }, format: "%.2f"),
                BenchFigure(
                    key: "centering_p95_width_pct", label: "p95 %w",
                    value: e.loop.centeringFractions.value(at: 95).map { $0 * 100 }, format: "%.1f"),
                BenchFigure(
                    key: "in_view_pct", label: "view %", value: e.loop.inViewShare.map { $0 * 100 }, format: "%.1f"),
                BenchFigure(key: "acquire_s", label: "acq s", value: e.loop.timeToAcquire, format: "%.2f"),
                BenchFigure(
                    key: "settle_s", label: "settle", value: unsettled ? .infinity : settles.median, format: "%.2f"),
                BenchFigure(
                    key: "overshoot_pct", label: "over %",
                    value: e.steps.isEmpty ? nil : e.steps.map { $0.overshoot * 100 }.max(), format: "%.1f"),
                BenchFigure(key: "reversals_per_min", label: "revs/m", value: e.reversalsPerMinute, format: "%.1f"),
                BenchFigure(
                    key: "motor_starts_per_min", label: "starts/m", value: e.motorStartsPerMinute, format: "%.1f"),
                BenchFigure(
                    key: "reacquire_s", label: "reacq s",
                    value: e.reacquireTimes.isEmpty
                        ? nil
                        : e.reacquireTimes.map { $0 ?? .infinity }.max(), format: "%.2f"),
                BenchFigure(
                    key: "out_of_view_s", label: "out s",
                    value: e.outOfViewSpells.isEmpty ? nil : e.outOfViewSpells.map { $0 ?? .infinity }.max(),
                    format: "%.2f"),
                BenchFigure(
                    key: "end_from_home_deg", label: "home °", value: e.endFromHome.map { $0 * 180 / .pi },
                    format: "%.1f"),
                BenchFigure(
                    key: "speaker_accuracy_pct", label: "spk %", value: e.speakerChoiceAccuracy.map { $0 * 100 },
                    format: "%.1f"),
                BenchFigure(
                    key: "switch_latency_s", label: "sw s",
                    value: e.switchLatencies.isEmpty
                        ? nil
                        : Percentiles(e.switchLatencies.map { $0 ?? .infinity }).median ?? .infinity, format: "%.2f"),
                BenchFigure(
                    key: "missed_switches", label: "missed",
                    value: e.switchLatencies.isEmpty
                        ? nil
                        : Double(e.switchLatencies.filter { $0 == nil }.count), format: "%.0f"),
                BenchFigure(key: "false_switches", label: "false", value: Double(e.falseSwitches), format: "%.0f"),
            ] + Self.roomFigures(e.speakerFraming) + Self.frontEndFigures(audioFrontEnd)
            + [
                BenchFigure(key: "id_switches", label: "ID sw", value: Double(e.identity.switches), format: "%.0f"),
                BenchFigure(
                    key: "idf1", label: "IDF1", value: e.identity.objects > 0 ? e.identity.idf1 : nil, format: "%.3f"),
                BenchFigure(
                    key: "track_rate_pct", label: "track rate %", value: trackRateCompliance.map { $0 * 100 },
                    format: "%.1f"),
                BenchFigure(key: "pipeline_p50_ms", label: "pipe p50", value: pipeline.median, format: "%.1f"),
                BenchFigure(key: "pipeline_p99_ms", label: "pipe p99", value: pipeline.p99, format: "%.1f"),
                BenchFigure(key: "frame_p50_ms", label: "frame p50 ms", value: frame.median, format: "%.1f"),
                BenchFigure(key: "frame_p99_ms", label: "frame p99 ms", value: frame.p99, format: "%.1f"),
                BenchFigure(key: "detect_p50_ms", label: "detect p50", value: detect.median, format: "%.1f"),
                BenchFigure(key: "detect_p99_ms", label: "detect p99", value: detect.p99, format: "%.1f"),
                BenchFigure(
                    key: "dropped_frames", label: "dropped", value: Double(summary.droppedFrames), format: "%.0f"),
                BenchFigure(
                    key: "cpu_pct", label: "CPU %",
                    value: summary.cpuSeconds.map { 100 * $0 / max(summary.wallSeconds, 1e-9) }, format: "%.0f"),
                BenchFigure(
                    key: "peak_rss_mb", label: "peak RSS MB", value: peakResidentBytes / 1_048_576, format: "%.0f"),
            ]
        return all.map { figure in
            var f = figure
            if f.value?.isNaN == true || (fixedCamera && Self.gimbalKeys.contains(f.key)) { f.value = nil }
            return f
        } + Self.cropFigures(digitalFraming) + Self.zoomFigures(zoom) + Self.wiringFigures(summary.channelOrder)
    }

    /// What the run found of the microphones' wiring from lips and the sound's side: the
    /// verdict (1 swapped, 0 as configured; none while undecided), when it came, and the share
    /// of windows whose sound came from the talker's side. Empty for a run with no such windows.
    static func wiringFigures(_ check: ChannelOrderCheck?) -> [BenchFigure] {
        let counted = check.map { $0.agreeing + $0.opposing } ?? 0
        let verdict: Double? =
            switch check?.verdict {
            case .swapped?: 1
            case .asConfigured?: 0
            default: nil
            }
        return [
            BenchFigure(key: "mic_wiring_swapped", label: "mics swapped", value: verdict, format: "%.0f"),
            BenchFigure(key: "mic_wiring_found_s", label: "found s", value: check?.decidedAt, format: "%.1f"),
            BenchFigure(
                key: "mic_wiring_agree_pct", label: "side ok %",
                value: counted > 0 ? check.map { 100 * Double($0.agreeing) / Double(counted) } : nil, format: "%.0f"),
        ]
    }

    /// A zooming camera's figures: how near the face's size stayed to its goal, and how often
    /// the lens moved.
    static func zoomFigures(_ z: ZoomEvaluation?) -> [BenchFigure] {
        [
            BenchFigure(
                key: "face_size_error_pct", label: "size err %", value: z?.sizeErrors.median.map { $0 * 100 },
                format: "%.1f"),
            BenchFigure(
                key: "face_size_p90_error_pct", label: "size p90 %",
                value: z?.sizeErrors.value(at: 90).map { $0 * 100 },
                format: "%.1f"),
            BenchFigure(
                key: "face_size_in_band_pct", label: "size ok %", value: z?.withinBandShare.map { $0 * 100 },
                format: "%.1f"),
            BenchFigure(key: "lens_zooms_per_min", label: "lens/m", value: z?.zoomsPerMinute, format: "%.1f"),
            BenchFigure(
                key: "face_box_over_truth", label: "box/truth", value: z?.detectedOverTruth, format: "%.2f"),
        ]
    }

    /// The figures a room and a conversation are judged by (`SpeakerFraming`).
    static func roomFigures(_ f: SpeakerFraming) -> [BenchFigure] {
        [
            BenchFigure(
                key: "right_speaker_pct", label: "right %", value: f.rightSpeaker.map { $0 * 100 }, format: "%.1f"),
            BenchFigure(
                key: "right_speaker_after_grace_pct", label: "right@1.5 %",
                value: f.rightSpeakerAfterGrace.map { $0 * 100 }, format: "%.1f"),
            BenchFigure(
                key: "speaker_in_picture_pct", label: "in pic %", value: f.speakerInPicture.map { $0 * 100 },
                format: "%.1f"),
            BenchFigure(
                key: "framed_changes_per_speaker_change", label: "chg/turn", value: f.changesPerSpeakerChange,
                format: "%.2f"),
            BenchFigure(
                key: "facing_nobody_s_per_min", label: "nobody s/m",
                value: f.rightSpeaker == nil ? nil : f.facingNobodyPerMinute, format: "%.1f"),
        ]
    }

    static func frontEndFigures(_ a: AudioFrontEndFigures?) -> [BenchFigure] {
        [
            BenchFigure(
                key: "audio_direction_error_deg", label: "dir err °", value: a?.medianDirectionError, format: "%.1f"),
            BenchFigure(
                key: "audio_direction_p90_deg", label: "dir p90 °", value: a?.p90DirectionError, format: "%.1f"),
            BenchFigure(
                key: "audio_direction_within_5_pct", label: "dir≤5° %", value: a?.directionWithin5.map { $0 * 100 },
                format: "%.1f"),
            BenchFigure(
                key: "audio_speech_recall_pct", label: "speech %", value: a?.speechRecall.map { $0 * 100 },
                format: "%.1f"),
            BenchFigure(
                key: "audio_noise_voiced_pct", label: "noise→voice %", value: a?.noiseCalledVoiced.map { $0 * 100 },
                format: "%.1f"),
            BenchFigure(key: "audio_cpu_pct_core", label: "audio CPU %", value: a?.cpuPercentOfCore, format: "%.2f"),
        ]
    }

    static let roomKeys: Set<String> = [
        "audio_direction_error_deg", "audio_direction_p90_deg", "audio_direction_within_5_pct",
        "audio_speech_recall_pct", "audio_noise_voiced_pct", "audio_cpu_pct_core",
        "right_speaker_pct", "right_speaker_after_grace_pct", "speaker_in_picture_pct",
        "framed_changes_per_speaker_change", "facing_nobody_s_per_min",
    ]

    /// Figures of the head's motion, which a fixed camera framed digitally has none of.
    static let gimbalKeys: Set<String> = [
        "centering_rms_deg", "centering_p95_deg", "centering_rms_width_pct", "centering_p95_width_pct", "in_view_pct",
        "acquire_s", "settle_s", "overshoot_pct", "reversals_per_min", "motor_starts_per_min", "reacquire_s",
        "out_of_view_s", "end_from_home_deg",
    ]

    /// A digitally framed run's own figures, on the crop.
    static func cropFigures(_ e: DigitalFramingEvaluation?) -> [BenchFigure] {
        [
            BenchFigure(
                key: "crop_centring_rms_deg", label: "crop RMS °", value: e?.centringErrors.rootMeanSquare,
                format: "%.2f"),
            BenchFigure(
                key: "crop_in_view_pct", label: "crop view %", value: e?.inViewShare.map { $0 * 100 }, format: "%.1f"),
            BenchFigure(key: "crop_still_jitter_px", label: "jitter px", value: e?.stillJitterRMS, format: "%.2f"),
            BenchFigure(key: "zoom_changes_per_min", label: "zooms/m", value: e?.zoomChangesPerMinute, format: "%.1f"),
        ]
    }

    /// The figures that depend only on the scene, the seed and the code (not on the machine's speed).
    public static let deterministicKeys: Set<String> = Set([
        "centering_rms_deg", "centering_p95_deg", "centering_rms_width_pct", "centering_p95_width_pct", "in_view_pct",
        "acquire_s", "settle_s",
        "overshoot_pct", "reversals_per_min", "motor_starts_per_min", "reacquire_s", "out_of_view_s",
        "end_from_home_deg", "speaker_accuracy_pct",
        "switch_latency_s", "missed_switches", "false_switches", "id_switches", "idf1", "track_rate_pct",
        "dropped_frames", "crop_centring_rms_deg", "crop_in_view_pct", "crop_still_jitter_px", "zoom_changes_per_min",
        "face_size_error_pct", "face_size_p90_error_pct", "face_size_in_band_pct", "lens_zooms_per_min",
        "face_box_over_truth", "mic_wiring_swapped", "mic_wiring_found_s", "mic_wiring_agree_pct",
    ]).union(roomKeys)
}
