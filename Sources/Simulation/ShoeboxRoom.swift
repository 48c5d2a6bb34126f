import DockCore
import Foundation

/// A rectangular room whose six walls absorb the same share of the energy that hits them, heard
/// through its impulse responses: the direct sound and the early reflections by the image-source
/// method (each wall mirrors the source; an image `order` reflections away arrives from farther,
/// weaker by the walls' reflection each time), and the late reverberation, where reflections are
/// too dense to list, as noise decaying at the room's reverberation time. Amplitudes are 1/r, so
/// a source 1 m away arrives at unit gain.
public struct ShoeboxRoom: Sendable, Hashable {
    public var size: RoomPoint
    /// The share of energy each wall absorbs (0…1).
    public var absorption: Double
    /// Reflections up to this order are listed one by one; the tail takes over after the time
    /// by which every image of that order has arrived.
    public var imageOrder = 6
    public static let speedOfSound = 343.0

    public init(size: RoomPoint, absorption: Double) {
        self.size = size
        self.absorption = absorption
    }

    /// The room whose Sabine reverberation time is `rt60` seconds (as pyroomacoustics'
    /// `inverse_sabine` sets it). Its image sources decay a little slower than Sabine's formula
    /// says, axial paths lasting longest: T30 measures 10–25 % longer, as it does there.
    public init(size: RoomPoint, reverberationTime rt60: Double) {
        self.init(size: size, absorption: Self.absorption(forReverberationTime: rt60, size: size))
    }

    public var volume: Double { size.x * size.y * size.z }
    public var surface: Double { 2 * (size.x * size.y + size.y * size.z + size.x * size.z) }

    /// Sabine: T60 = 24 ln 10 · V / (c · S · α).
    public static func absorption(forReverberationTime rt60: Double, size: RoomPoint) -> Double {
        let room = ShoeboxRoom(size: size, absorption: 1)
        return min(1, 24 * log(10) * room.volume / (speedOfSound * room.surface * rt60))
    }

    /// The Sabine reverberation time (s).
    public var reverberationTime: Double { 24 * log(10) * volume / (Self.speedOfSound * surface * absorption) }

    public func contains(_ p: RoomPoint) -> Bool {
        p.x > 0 && p.x < size.x && p.y > 0 && p.y < size.y && p.z > 0 && p.z < size.z
    }

    /// The impulse response from `source` to `microphone`, `length` seconds at `sampleRate`:
    /// image sources up to `imageOrder` (each a windowed-sinc fractional delay), then a tail
    /// of noise from `seed` whose mean square is the images' own: 4π c / (V fs) (images arrive at
    /// 4π c³ t² / V a second, each at 1/(ct)²) times the energy they keep (`tailEnvelope`), so it joins the listed reflections without a step.
    public func impulseResponse(
        from source: RoomPoint, to microphone: RoomPoint, sampleRate: Double, length: Double? = nil, seed: UInt64
    ) -> [Float] {
        let rt60 = reverberationTime
        let count = Int((length ?? min(2.5, rt60 * 1.5 + 0.05)) * sampleRate)
        var h = [Float](repeating: 0, count: count)
        let reflection = (1 - absorption).squareRoot()
        let complete = Double(imageOrder) * min(size.x, size.y, size.z) / Self.speedOfSound
        let halfWidth = 20
        let n = imageOrder
        for i in -n...n {
            for j in -(n - abs(i))...(n - abs(i)) {
                for k in -(n - abs(i) - abs(j))...(n - abs(i) - abs(j)) {
                    // Cells i, j, k of the mirrored lattice; each holds the source or its mirror.
                    func image(_ cell: Int, _ s: Double, _ length: Double) -> Double {
                        cell % 2 == 0 ? Double(cell) * length + s : Double(cell + 1) * length - s
                    }
                    let p = RoomPoint(
                        x: image(i, source.x, size.x), y: image(j, source.y, size.y), z: image(k, source.z, size.z))
                    let distance = p.distance(to: microphone)
                    let delay = distance / Self.speedOfSound
                    guard delay <= complete || (i == 0 && j == 0 && k == 0) else { continue }
                    let order = abs(i) + abs(j) + abs(k)
                    let gain = pow(reflection, Double(order)) / max(distance, 0.05)
                    Self.addImpulse(&h, at: delay * sampleRate, gain: gain, halfWidth: halfWidth)
                }
            }
        }
        // The late tail, from where the listed reflections stop being complete.
        let density = 4 * .pi * Self.speedOfSound / (volume * sampleRate)
        let envelope = tailEnvelope(step: 0.005, until: Double(count) / sampleRate)
        var random = SeededGenerator(seed: seed)
        let start = Int(complete * sampleRate)
        for index in max(0, start)..<count {
            let t = Double(index) / sampleRate
            let position = t / 0.005
            let k = min(envelope.count - 2, Int(position))
            let share = envelope[k] + (envelope[k + 1] - envelope[k]) * (position - Double(k))
            let rms = (density * share).squareRoot()
            // A ramp over 5 ms so the tail does not begin with a step.
            let ramp = min(1, Double(index - start) / (0.005 * sampleRate))
            h[index] += Float(rms * ramp * Self.gaussian(&random))
        }
        return h
    }

    /// The share of its energy an image at distance ct keeps, averaged over the directions it
    /// may lie in: along direction u the image has crossed about ct·(|ux|/Lx + |uy|/Ly + |uz|/Lz)
    /// walls. So the tail decays as this room's images do, axial paths lasting longest, and not
    /// at Sabine's single rate. Sampled every `step` seconds.
    func tailEnvelope(step: Double, until end: Double) -> [Double] {
        let directions = 800
        let golden = Double.pi * (3 - 5.0.squareRoot())
        let crossings = (0..<directions).map { i -> Double in
            let z = 1 - 2 * (Double(i) + 0.5) / Double(directions)
            let r = (1 - z * z).squareRoot()
            let x = r * cos(golden * Double(i))
            let y = r * sin(golden * Double(i))
            return abs(x) / size.x + abs(y) / size.y + abs(z) / size.z
        }
        let logKept = log(max(1 - absorption, 1e-12))
        return (0...Int(end / step) + 1).map { k in
            let distance = Double(k) * step * Self.speedOfSound
            return crossings.reduce(0) { $0 + exp(logKept * distance * $1) } / Double(directions)
        }
    }

    static func addImpulse(_ h: inout [Float], at position: Double, gain: Double, halfWidth: Int) {
        let centre = Int(position.rounded(.down))
        let fraction = position - Double(centre)
        for k in -halfWidth...(halfWidth + 1) {
            let index = centre + k
            guard index >= 0, index < h.count else { continue }
            let t = Double(k) - fraction
            let sinc = abs(t) < 1e-9 ? 1 : sin(.pi * t) / (.pi * t)
            let window = 0.5 + 0.5 * cos(.pi * t / Double(halfWidth + 1))
            h[index] += Float(gain * sinc * max(0, window))
        }
    }

    static func gaussian(_ random: inout SeededGenerator) -> Double {
        let u = max(Double.random(in: 0..<1, using: &random), 1e-12)
        let v = Double.random(in: 0..<1, using: &random)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}

/// What an impulse response measures as: its reverberation time by Schroeder's backward
/// integration, and its direct sound.
public enum ImpulseResponseMeasure {
    /// T60 extrapolated from the energy decay curve's fall from −5 to −(5 + `range`) dB
    /// (T30 for 30), by a least-squares line; nil when the response never falls that far.
    public static func reverberationTime(_ h: [Float], sampleRate: Double, range: Double = 30) -> Double? {
        var energy = [Double](repeating: 0, count: h.count + 1)
        for i in stride(from: h.count - 1, through: 0, by: -1) { energy[i] = energy[i + 1] + Double(h[i] * h[i]) }
        guard let total = energy.first, total > 0 else { return nil }
        let decay = energy.dropLast().map { 10 * log10(max($0 / total, 1e-30)) }
        guard let first = decay.firstIndex(where: { $0 <= -5 }),
            let last = decay.firstIndex(where: { $0 <= -5 - range }), last > first + 1
        else { return nil }
        var (sx, sy, sxx, sxy) = (0.0, 0.0, 0.0, 0.0)
        for i in first...last {
            let x = Double(i) / sampleRate
            sx += x
            sy += decay[i]
            sxx += x * x
            sxy += x * decay[i]
        }
        let n = Double(last - first + 1)
        let slope = (n * sxy - sx * sy) / (n * sxx - sx * sx)
        return slope < 0 ? -60 / slope : nil
    }

    /// The strongest sample's index and value.
    public static func peak(_ h: [Float]) -> (index: Int, value: Float)? {
        guard let index = h.indices.max(by: { abs(h[$0]) < abs(h[$1]) }) else { return nil }
        return (index, h[index])
    }
}

extension SceneRoom {
    /// The room as the simulation hears it.
    public var shoebox: ShoeboxRoom { ShoeboxRoom(size: size, reverberationTime: reverberationTime) }
}
