import Foundation
import TestSupport
import Testing

/// The layers of the house, derived from Package.swift: no module depends on one above it, and
/// the few edges the design rules out by name stay out. The edges still to be undone are named
/// here, so a new one fails and an undone one must leave the list.
@Suite(.tags(.unit)) struct LayerTests {
    /// Each library module's layer, from the bottom. Executables and tests sit above them all.
    static let layers: [(name: String, modules: Set<String>)] = [
        (
            "C shims",
            [
                "CNettle", "CVision", "CVisionMedia", "CTurboJPEG", "CV4L2", "CSerial", "CJPEG", "CALSA", "CMicroHTTPD",
                "CDockKitInProcess",
            ]
        ),
        ("core", ["Spatial", "DockCore"]),
        (
            "devices and algorithms",
            [
                "Imaging", "Capture", "Perception", "Tracking", "Audio", "Motion", "MotorDevices", "Control",
                "ControlClient", "CameraOutputs", "Calibration", "SceneModel",
            ]
        ),
        ("engine", ["Pipeline", "DockEngine"]),
        (
            "above the engine: the public API, simulation, measurement",
            [
                "DockKit", "DockKitInProcess", "Simulation", "CameraSimulation", "Bench", "GroundTruth", "Rigs",
                "DetectionBench",
                "PeerBench", "SceneFiles",
            ]
        ),
        ("service and benchmark", ["ControlServer", "Options", "Daemon", "BenchRunner"]),
        ("harnesses", ["Soak", "TestSupport"]),
    ]

    /// Modules ruled out of another's reach though they sit below it, by any path: the public
    /// API holds neither the control law nor the motor devices; the benchmark does not link the
    /// daemon to read its options. A dependency through which one is reached is a wrong edge.
    static let outOfReach: [String: Set<String>] = ["DockKit": ["Control", "Motion"], "BenchRunner": ["Daemon"]]

    /// Edges that still break the rules, named so that a new one fails and an undone one must
    /// leave the list (docs/architecture.md, "Layers"). None now.
    static let stillToUndo: Set<String> = []

    static func layer(of module: String) -> Int? { layers.firstIndex { $0.modules.contains(module) } }

    /// Every module `module` depends on, directly or not.
    static func reach(from module: String, in dependencies: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = []
        var next = Array(dependencies[module] ?? [])
        while let m = next.popLast() {
            guard seen.insert(m).inserted else { continue }
            next += dependencies[m] ?? []
        }
        return seen
    }

    @Test func noModuleDependsOnOneAboveIt() throws {
        var wrong: Set<String> = []
        var unplaced: [String] = []
        let targets = try LayoutTests.targets()
        let dependencies = Dictionary(targets.map { ($0.name, $0.dependencies) }) { a, _ in a }
        for target in targets where target.kind == "target" {
            guard let own = Self.layer(of: target.name) else {
                unplaced.append(target.name)
                continue
            }
            for dependency in target.dependencies {
                let edge = "\(target.name) → \(dependency)"
                guard let theirs = Self.layer(of: dependency) else {
                    unplaced.append(dependency)
                    continue
                }
                let ruledOut = Self.outOfReach[target.name] ?? []
                let reached = Self.reach(from: dependency, in: dependencies).union([dependency])
                if theirs > own || !reached.isDisjoint(with: ruledOut) { wrong.insert(edge) }
            }
        }
        #expect(unplaced.isEmpty, "give these modules a layer in LayerTests.layers: \(unplaced)")
        let new = wrong.subtracting(Self.stillToUndo)
        let undone = Self.stillToUndo.subtracting(wrong)
        #expect(new.isEmpty, "these dependencies point up the layers or are ruled out: \(new.sorted())")
        #expect(undone.isEmpty, "these are undone: take them off LayerTests.stillToUndo: \(undone.sorted())")
    }

    /// Every library module has one layer.
    @Test func theLayersDoNotOverlap() {
        let all = Self.layers.flatMap(\.modules)
        #expect(Set(all).count == all.count)
    }
}
