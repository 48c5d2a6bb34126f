import DockCore
import Foundation
import Imaging
import Motion

/// Learns how a head is built and wired by watching its own camera: for each axis, a small
/// slow turn, and the picture before and after. How the picture moved gives the angle the
/// camera really turned and the focal length (`RotationFit`); against what the head read, the
/// axis's direction and its units; the moment the picture starts to move, the command latency.
/// It needs a still, textured view for a few seconds (people moving are left out of the fit).
/// Every command goes through a `MotorController` like the engine's: the device's limits, the
/// deadman (the turn's velocity is sent again with each frame), feedback polled from heads that
/// must be asked, and a halt from the signal thread.
public final class HeadCalibrator {
    public struct Settings: Sendable {
        /// How fast and how long each turn is: 10°/s for 0.8 s, about 8°.
        public var turnSpeed = 10 * Double.pi / 180
        public var turnSeconds = 0.8
        /// How long the head is left to settle before a picture is taken, seconds.
        public var settleSeconds = 0.5
        /// The side of the square pieces of the picture that are followed, pixels.
        public var patch = 96
        public init() {}
    }

    let source: any FrameSource
    let device: any MotorBackend
    let motors: MotorController
    let settings: Settings
    /// Set by a signal: the head is told to stop at once (on the signal's thread) and the
    /// calibration ends at the next frame.
    let stop: StopFlag
    /// When a command made on `frame` leaves: the frame's own time in lock-step, now in real time.
    let commandTime: (Frame) -> MonotonicInstant
    /// The velocity held while a turn lasts, sent again with each frame.
    private var held = Vector3D()
    private var lastCommandTime: MonotonicInstant?

    public init(
        source: any FrameSource, device: any MotorBackend, settings: Settings = Settings(), stop: StopFlag = StopFlag(),
        commandTime: @escaping (Frame) -> MonotonicInstant
    ) {
        self.source = source
        self.device = device
        motors = MotorController(backend: device)
        self.settings = settings
        self.stop = stop
        self.commandTime = commandTime
        stop.whenSet { [motors] now in motors.halt(at: now) }
    }

    /// Turns each axis the device has and back, and says what it found.
    public func run(progress: (String) -> Void = { _ in }) throws(CalibrationError) -> HeadCalibration {
        var result = HeadCalibration()
        defer { motors.stop(at: lastCommandTime ?? .zero) }
        if device.capabilities.limits.yaw != nil {
            progress("turning pan by about \(Int(settings.turnSpeed * settings.turnSeconds * 180 / .pi))° and back")
            result.pan = try calibrate(.pan, knownFocalLength: nil)
        }
        if device.capabilities.limits.pitch != nil {
            progress("turning tilt by about \(Int(settings.turnSpeed * settings.turnSeconds * 180 / .pi))° and back")
            result.tilt = try calibrate(.tilt, knownFocalLength: result.pan?.focalLength)
        }
        result.pictureWidth = source.size.width
        return result
    }

    private func frame() throws(CalibrationError) -> Frame {
        let next: Frame?
        do { next = try source.nextFrame() } catch { throw CalibrationError("the camera failed: \(error)") }
        guard let next else { throw CalibrationError("the camera stopped sending frames") }
        try hold(at: commandTime(next))
        return next
    }

    /// Sends the held velocity again, or, standing still, lets the controller poll the head.
    private func hold(at time: MonotonicInstant) throws(CalibrationError) {
        // A signal has halted the controller already; say why rather than that it refused.
        if stop.isSet {
            throw CalibrationError("stopped by \(stop.signalReceived ?? "request"); the head was told to stop")
        }
        lastCommandTime = time
        if held == Vector3D() {
            motors.service(at: time)
            return
        }
        do { try motors.command(held, at: time) } catch {
            throw CalibrationError("the head refused a command: \(error)")
        }
    }

    /// Frames until `seconds` of frame time have passed; the last one.
    private func wait(_ seconds: Double, from start: Frame, watching: ((Frame) throws(CalibrationError) -> Void)? = nil)
        throws(CalibrationError) -> Frame
    {
        var last = start
        while last.stamp.time.seconds(since: start.stamp.time) < seconds {
            last = try frame()
            try watching?(last)
        }
        return last
    }

    private func reading(_ axis: TurnAxis, at time: MonotonicInstant) -> Double {
        let pose = device.motionState(at: time).angularPositions
        return axis == .pan ? pose.y : pose.x
    }

    private func command(_ axis: TurnAxis, _ speed: Double, at time: MonotonicInstant) throws(CalibrationError) {
        held = axis == .pan ? Vector3D(x: 0, y: speed, z: 0) : Vector3D(x: speed, y: 0, z: 0)
        if speed == 0 {
            motors.stop(at: time)
            lastCommandTime = time
        } else {
            try hold(at: time)
        }
    }

    private func calibrate(_ axis: TurnAxis, knownFocalLength: Double?) throws(CalibrationError) -> AxisCalibration {
        let before = try wait(settings.settleSeconds, from: try frame())
        let startReading = reading(axis, at: before.stamp.time)
        // Turn away from the nearer end of travel.
        let limit = axis == .pan ? device.capabilities.limits.yaw : device.capabilities.limits.pitch
        let room = limit.map { $0.positionRange.upperBound - startReading } ?? .infinity
        let speed = room > 2 * settings.turnSpeed * settings.turnSeconds ? settings.turnSpeed : -settings.turnSpeed
        let start = commandTime(before)
        try command(axis, speed, at: start)
        // The picture's move, frame by frame, from the command until the head has settled.
        var track: [(time: Double, x: Double, y: Double)] = []
        let follow = { (f: Frame) throws(CalibrationError) -> Void in
            let guess = track.last.map { (Int($0.x.rounded()), Int($0.y.rounded())) } ?? (0, 0)
            guard let shift = self.overallShift(from: before, to: f, guess: guess) else { return }
            track.append((f.stamp.time.seconds(since: start), shift.x, shift.y))
        }
        let turned = try wait(settings.turnSeconds, from: before, watching: follow)
        try command(axis, 0, at: commandTime(turned))
        let after = try wait(settings.settleSeconds + 0.3, from: turned, watching: follow)
        let readTurn = reading(axis, at: after.stamp.time) - startReading
        guard abs(readTurn) > 0.25 * settings.turnSpeed * settings.turnSeconds else {
            throw CalibrationError(
                "the head read a turn of \(String(format: "%.2f", readTurn * 180 / .pi))° on \(axis) when told to turn about \(Int(settings.turnSpeed * settings.turnSeconds * 180 / .pi))°: check its link, power and limits"
            )
        }
        let fit = try fitTurn(axis, before: before, after: after, guess: track.last, knownFocalLength: knownFocalLength)
        // Back where it started.
        let back = try wait(0.05, from: after)
        try command(axis, -speed, at: commandTime(back))
        let returned = try wait(settings.turnSeconds, from: back)
        try command(axis, 0, at: commandTime(returned))
        _ = try wait(settings.settleSeconds, from: returned)
        let latency = Self.latency(
            track, axis: axis, focalLength: fit.focalLength,
            acceleration: device.capabilities.maximumAcceleration)
        return AxisCalibration(
            axis: axis, direction: fit.angle * readTurn > 0 ? 1 : -1, readTurn: readTurn, cameraTurn: fit.angle,
            focalLength: fit.focalLength, residual: fit.residual, points: fit.points, latency: latency)
    }

    /// How the picture moved as a whole: the median of nine large pieces' moves, so that a
    /// person walking through one or two does not count.
    private func overallShift(from before: Frame, to after: Frame, guess: (x: Int, y: Int)) -> (x: Double, y: Double)? {
        let (w, h) = (Double(before.width), Double(before.height))
        let side = min(w, h) / 3
        var xs: [Double] = []
        var ys: [Double] = []
        for row in 0..<3 {
            for column in 0..<3 {
                let x = w * Double(column + 1) / 4 - side / 2
                let y = h * Double(row + 1) / 4 - side / 2
                guard x + Double(guess.x) >= 0, y + Double(guess.y) >= 0, x + Double(guess.x) + side <= w,
                    y + Double(guess.y) + side <= h,
                    let shift = try? before.shift(
                        to: after, in: PixelRect(x: x, y: y, width: side, height: side), guess: guess),
                    shift.response > 0.05
                else { continue }
                xs.append(shift.x)
                ys.append(shift.y)
            }
        }
        guard xs.count >= 3 else { return nil }
        return (RotationFit.median(xs), RotationFit.median(ys))
    }

    /// How the pieces of the picture moved between `before` and `after`, fitted to a turn.
    private func fitTurn(
        _ axis: TurnAxis, before: Frame, after: Frame, guess: (time: Double, x: Double, y: Double)?,
        knownFocalLength: Double?
    ) throws(CalibrationError) -> RotationFit.Result {
        let size = source.size
        let (w, h) = (Double(size.width), Double(size.height))
        let patch = Double(settings.patch)
        let global = (x: Int((guess?.x ?? 0).rounded()), y: Int((guess?.y ?? 0).rounded()))
        var motions: [PointMotion] = []
        let (columns, rows) = (8, 5)
        for row in 0..<rows {
            for column in 0..<columns {
                let x = w * 0.04 + (w * 0.92 - patch) * Double(column) / Double(columns - 1)
                let y = h * 0.04 + (h * 0.92 - patch) * Double(row) / Double(rows - 1)
                let region = PixelRect(x: x, y: y, width: patch, height: patch)
                let moved = (x: x + Double(global.x), y: y + Double(global.y))
                guard moved.x >= 0, moved.y >= 0, moved.x + patch <= w, moved.y + patch <= h,
                    Self.isTextured(before, region),
                    let shift = try? before.shift(to: after, in: region, guess: global), shift.response > 0.1
                else { continue }
                let (cx, cy) = (x + patch / 2 - w / 2, y + patch / 2 - h / 2)
                motions.append(PointMotion(x: cx, y: cy, movedX: cx + shift.x, movedY: cy + shift.y))
            }
        }
        guard
            let fit = RotationFit.fit(
                motions, axis: axis, focalRange: (0.15 * w)...(8 * w), knownFocalLength: knownFocalLength),
            fit.points >= 6
        else {
            throw CalibrationError(
                "the picture has too little texture to follow (\(motions.count) usable pieces of \(columns * rows)): point the camera at a lit, detailed scene and keep people out of it"
            )
        }
        return fit
    }

    /// Whether a piece has detail both ways: a blank wall, or a wall of horizontal bands, pins
    /// no move down (phase correlation then answers "no move" with confidence).
    static func isTextured(_ frame: Frame, _ region: PixelRect) -> Bool {
        let channels = frame.format.channels
        let step = max(1, Int(region.width) / 24)
        let (x0, y0) = (Int(region.x), Int(region.y))
        var (across, down, count) = (0.0, 0.0, 0.0)
        let at = { (x: Int, y: Int) in Double(frame.pixels[(y * frame.width + x) * channels + (channels > 1 ? 1 : 0)]) }
        for y in stride(from: y0 + step, to: y0 + Int(region.height), by: step) {
            for x in stride(from: x0 + step, to: x0 + Int(region.width), by: step) {
                across += abs(at(x, y) - at(x - step, y))
                down += abs(at(x, y) - at(x, y - step))
                count += 1
            }
        }
        return min(across, down) / max(count, 1) >= 3
    }

    /// The command latency: the camera's turn over time from the centre's moves, a line
    /// through its steady part, and where that line leaves zero, less the time the head took
    /// to reach its speed (half the speed over the acceleration, when the head says it).
    static func latency(
        _ track: [(time: Double, x: Double, y: Double)], axis: TurnAxis, focalLength: Double, acceleration: Double?
    ) -> Double? {
        let angles = track.map { (time: $0.time, angle: atan(abs(axis == .pan ? $0.x : $0.y) / focalLength)) }
        guard let most = angles.map(\.angle).max(), most > 0 else { return nil }
        let steady = angles.filter { $0.angle > 0.15 * most && $0.angle < 0.7 * most }
        guard steady.count >= 3, let line = StraightLine(x: steady.map(\.time), y: steady.map(\.angle)),
            line.slope > 0, let leavesZero = line.zeroCrossing
        else { return nil }
        return leavesZero - (acceleration.map { line.slope / (2 * $0) } ?? 0)
    }
}
