import DockCore
import Foundation

/// Parameters of obs-face-tracker's PTZ control, with its published defaults.
public struct PIDConfiguration: Sendable, Hashable {
    /// Proportional constant in decibels (gain = 10^(dB/20)).
    public var kpDecibels = 50.0
    /// Integral constant, s⁻¹.
    public var ki = 0.3
    /// Derivative constant, s.
    public var td = 0.42
    /// Time constant of the low-pass filter before the derivative, s.
    public var lowPassTime = 2.0
    /// Dead band and nonlinear band, as fractions of the average of frame width and height.
    public var deadBand = 0.01
    public var nonlinearBand = 0.02
    /// After the face is lost the integral decays with this time constant, s.
    public var lostAttenuationTime = 1.0
    /// The plug-in's output is a camera-specific speed command; this maps one unit of it to
    /// rad/s. 0.5°/s per unit makes the default 50 dB a proportional gain of about 3 s⁻¹ on a
    /// 60° 1280×720 view, like OpenDock's own, so the comparison is between laws, not tunings.
    public var radiansPerSecondPerUnit = 0.5 * .pi / 180
    /// Largest command, in units (the plug-in's "max control").
    public var maximumUnits = 400.0

    public init() {}

    public var kp: Double { pow(10, kpDecibels / 20) }
}

/// A reproduction of obs-face-tracker's PTZ law from its documentation: the error (as a fraction
/// of the frame) passes a dead band and a nonlinear band (a quadratic blend into the linear
/// range), then a PID element whose output is the speed command: Kp·(e + Ki∫e + Td·d/dt LPF(e)).
/// The integral stops growing while the output is saturated (anti-windup) and decays after the
/// face is lost.
public struct PIDControlLaw: ControlLaw {
    public let name = "pid"
    public let configuration: PIDConfiguration

    private struct Axis: Sendable {
        var integral = 0.0
        var filtered = 0.0
        var lastFiltered: Double?
    }
    private var x = Axis()
    private var y = Axis()
    private var lastTime: MonotonicInstant?

    public init(configuration: PIDConfiguration = PIDConfiguration()) {
        self.configuration = configuration
    }

    /// The dead band and nonlinear band: zero inside the dead band, a quadratic that meets the
    /// linear range with matching slope, then linear shifted by half the nonlinear band.
    public static func shape(_ e: Double, deadBand d: Double, nonlinearBand n: Double) -> Double {
        let m = abs(e)
        let sign: Double = e < 0 ? -1 : 1
        if m <= d { return 0 }
        if n > 0, m < d + n { return sign * (m - d) * (m - d) / (2 * n) }
        return sign * (m - d - n / 2)
    }

    public mutating func update(_ input: ControlInput) -> Vector3D {
        let dt = lastTime.map { min(max(input.time.seconds(since: $0), 0), 0.2) } ?? 0
        lastTime = input.time
        let c = configuration
        var errors: (x: Double, y: Double)?
        if let target = input.target {
            let size = input.camera.referenceDimensions
            let scale = Double(size.width + size.height) / 2
            let coordinates = ImageCoordinates(size: size)
            let subject = coordinates.pixels(x: target.midX, y: target.midY)
            let aim = coordinates.pixels(x: input.framingPoint.x, y: input.framingPoint.y)
            errors = (
                Self.shape((subject.y - aim.y) / scale, deadBand: c.deadBand, nonlinearBand: c.nonlinearBand),
                Self.shape((subject.x - aim.x) / scale, deadBand: c.deadBand, nonlinearBand: c.nonlinearBand)
            )
        }
        let pan = Self.step(&y, error: errors?.y, dt: dt, c)
        let tilt = Self.step(&x, error: errors?.x, dt: dt, c)
        return Vector3D(x: tilt, y: pan, z: 0)
    }

    private static func step(_ axis: inout Axis, error: Double?, dt: Double, _ c: PIDConfiguration) -> Double {
        let e = error ?? 0
        if error == nil, dt > 0 { axis.integral *= exp(-dt / c.lostAttenuationTime) }
        if dt > 0 { axis.filtered += (e - axis.filtered) * min(1, dt / c.lowPassTime) }
        let derivative = (dt > 0 && axis.lastFiltered != nil) ? (axis.filtered - axis.lastFiltered!) / dt : 0
        axis.lastFiltered = axis.filtered
        var units = c.kp * (e + c.ki * axis.integral + c.td * derivative)
        let saturated = abs(units) >= c.maximumUnits
        if error != nil, dt > 0, !(saturated && (e > 0) == (units > 0)) {
            axis.integral += e * dt
            units = c.kp * (e + c.ki * axis.integral + c.td * derivative)
        }
        units = min(max(units, -c.maximumUnits), c.maximumUnits)
        return units * c.radiansPerSecondPerUnit
    }
}
