import Foundation
import Pipeline

/// The generated benchmark suite: one scene file per situation a tracker meets in a room, each
/// with exact ground truth (the generator knows where every face is). `dockctl scenes DIR`
/// writes them; the copies in scenes/ are these files.
public enum SceneSuite {
    /// A generated person: id, path keyframes [t, yaw, pitch], extras.
    static func person(
        _ id: Int, _ path: [[Double]], face: Double = 110, mirrored: Bool = false, brightness: Double = 1,
        turnedAway: [[Double]] = [], speaking: [[Double]] = [], talking: Bool = false
    ) -> [String: Any] {
        var p: [String: Any] = ["id": id, "path": path, "face_height_px": face]
        if mirrored { p["mirrored"] = true }
        if brightness != 1 { p["brightness"] = brightness }
        if !turnedAway.isEmpty { p["turned_away"] = turnedAway }
        if !speaking.isEmpty { p["speaking"] = speaking }
        if talking { p["talking"] = true }
        return p
    }

    static func scene(
        _ description: String, people: [[String: Any]], duration: Double, extras: [String: Any] = [:],
        truth: [String: Any] = [:], gimbal: [String: Any] = [:]
    ) -> [String: Any] {
        var generated: [String: Any] = [
            "width": 3200, "height": 1200, "fps": 30, "duration_s": duration, "people": people,
        ]
        generated.merge(extras) { $1 }
        var scene: [String: Any] = [
            "description": description,
            "world": ["generated": generated, "horizontal_fov_deg": 110],
            "camera": ["width": 1280, "height": 720, "horizontal_fov_deg": 60],
            "gimbal": ["max_speed_deg_s": 120, "max_accel_deg_s2": 480, "latency_ms": 40, "speed_step_deg_s": 0]
                .merging(gimbal) { $1 },
        ]
        if !truth.isEmpty { scene["truth"] = truth }
        return scene
    }

    /// The suite, by file name (without .json).
    public static var scenes: [(name: String, json: [String: Any])] {
        let walk: [[Double]] = [[0, 0], [1, 0], [5, 16, 1], [6, 16, 1], [11, -16, -1], [12, -16, -1]]
        return [
            (
                "walk-slow",
                scene("One person walks slowly (about 4°/s) right, then left.", people: [person(1, walk)], duration: 12)
            ),
            (
                "walk-slower",
                scene(
                    "One person strolls very slowly (2.5°/s) across and back, pausing between: the head should pan as slowly and steadily.",
                    people: [
                        person(1, [[0, -10], [1, -10], [9, 10, 1], [11, 10, 1], [19, -10, -1], [20, -10, -1]])
                    ],
                    duration: 20)
            ),
            (
                "leave-view",
                scene(
                    "The person turns away and walks out of the view at 20°/s, stopping 10° beyond its edge, and turns back 2 s later: the head should go after them.",
                    people: [person(1, [[0, -10], [2, -10], [4.25, 35], [10, 35]], turnedAway: [[2.5, 6]])],
                    duration: 10, gimbal: ["start_yaw_deg": -10])
            ),
            (
                "leave-for-good",
                scene(
                    "The person walks out through a doorway at the side and does not come back: the head looks for them, then returns home.",
                    people: [person(1, [[0, 0], [2, 0], [7, 50], [20, 50]])], duration: 20,
                    extras: ["occluders": [["yaw_deg": 48, "width_deg": 14]]])
            ),
            (
                "still",
                scene(
                    "One person stands still 1.2° right of and 0.8° below the centre: the head should never move.",
                    people: [person(1, [[0, 1.2, 0.8], [10, 1.2, 0.8]])], duration: 10)
            ),
            (
                "walk-fast",
                scene(
                    "One person walks fast (about 14°/s) across the room and back.",
                    people: [
                        person(1, [[0, 0], [0.5, 0], [2.5, 28, 1], [3, 28, 1], [7, -28, -1], [8, -28, -1]])
                    ], duration: 8)
            ),
            (
                "steps",
                scene(
                    "The person jumps 18° sideways twice (a cut): step response, settle and overshoot.",
                    people: [person(1, [[0, -6], [2.99, -6], [3, 12], [5.99, 12], [6, -6], [9, -6]])], duration: 9,
                    truth: ["steps_s": [3, 6]])
            ),
            (
                "visca-steps",
                scene(
                    "The same steps on a VISCA-like head: 24 speed steps, 80 ms latency, slower acceleration.",
                    people: [person(1, [[0, -6], [2.99, -6], [3, 12], [5.99, 12], [6, -6], [9, -6]])], duration: 9,
                    truth: ["steps_s": [3, 6]],
                    gimbal: ["max_speed_deg_s": 60, "max_accel_deg_s2": 180, "latency_ms": 80, "speed_step_deg_s": 2.5])
            ),
            (
                "laggy-ptz-steps",
                scene(
                    "Steps on a PTZ camera slower than its model says: 160 ms of latency where the device's figure is 80 ms (a camera behind a slow link). The law measures the latency from its first starts.",
                    people: [
                        person(
                            1,
                            [
                                [0, -6], [2.99, -6], [3, 12], [5.99, 12], [6, -6], [8.99, -6], [9, 12], [11.99, 12],
                                [12, -6], [15, -6],
                            ])
                    ], duration: 15,
                    truth: ["steps_s": [3, 6, 9, 12]],
                    gimbal: [
                        "max_speed_deg_s": 60, "max_accel_deg_s2": 180, "latency_ms": 160, "declared_latency_ms": 80,
                        "speed_step_deg_s": 2.5,
                    ])
            ),
            (
                "two-people",
                scene(
                    "Two people stand apart and take turns speaking, four or five seconds each.",
                    people: [
                        person(1, [[0, -14], [18, -14]], speaking: [[0, 5], [10, 14]]),
                        person(
                            2, [[0, 14], [18, 14]], mirrored: true, brightness: 0.85, speaking: [[5, 10], [14, 18]]),
                    ],
                    duration: 18)
            ),
            (
                "three-people",
                scene(
                    "Three people in a row take turns speaking; the outer two are 40° apart, so one is out of view while the other is framed.",
                    people: [
                        person(1, [[0, -20], [19, -20]], speaking: [[0, 5], [15, 19]]),
                        person(
                            2, [[0, 0], [19, 0]], face: 100, mirrored: true, brightness: 0.8, speaking: [[5, 10]]),
                        person(3, [[0, 20], [19, 20]], face: 120, brightness: 1.15, speaking: [[10, 15]]),
                    ],
                    duration: 19)
            ),
            (
                "interjections",
                scene(
                    "One person talks at length; the two beside them put in one-word replies (0.35 s, "
                        + "some over the talk, some in its pauses) and, at the end, one takes a real turn.",
                    people: [
                        person(1, [[0, 0], [20, 0]], speaking: [[0.5, 6], [6.8, 12.2], [13.2, 14.5]]),
                        person(
                            2, [[0, -18], [20, -18]], face: 100, mirrored: true, brightness: 0.8,
                            speaking: [[3, 3.35], [6.25, 6.6], [10, 10.35]]),
                        person(
                            3, [[0, 18], [20, 18]], face: 120, brightness: 1.15,
                            speaking: [[8, 8.35], [12.4, 12.75], [15, 20]]),
                    ],
                    duration: 20)
            ),
            (
                "panel",
                scene(
                    "Four people on a panel, 15° apart, talk in turns of uneven length (1.6 to 5.5 s) with "
                        + "pauses between; one coughs (0.3 s) during another's turn.",
                    people: [
                        person(1, [[0, -23], [24, -23]], face: 105, speaking: [[0.3, 4], [15.6, 19]]),
                        person(
                            2, [[0, -8], [24, -8]], face: 115, mirrored: true, brightness: 0.9,
                            speaking: [[4.6, 10.1]]),
                        person(
                            3, [[0, 7], [24, 7]], face: 100, brightness: 1.1, speaking: [[10.5, 13.3], [19.7, 24]]),
                        person(
                            4, [[0, 22], [24, 22]], face: 110, mirrored: true, brightness: 0.75,
                            speaking: [[7.2, 7.5], [13.7, 15.3]]),
                    ],
                    duration: 24)
            ),
            (
                "quick-turns",
                scene(
                    "Two people trade short turns every 1.5 s: frame them together rather than swing between them.",
                    people: [
                        person(1, [[0, -10], [12, -10]], speaking: [[0, 1.5], [3, 4.5], [6, 7.5], [9, 10.5]]),
                        person(
                            2, [[0, 10], [12, 10]], mirrored: true, brightness: 0.85,
                            speaking: [[1.5, 3], [4.5, 6], [7.5, 9], [10.5, 12]]),
                    ],
                    duration: 12)
            ),
            (
                "lips",
                scene(
                    "One person sits in front, another stands behind at the same bearing: the sound cannot tell them apart. The one behind, a real talking face, speaks; only the lips tell who.",
                    people: [
                        person(
                            1, [[0, 0.5, -8], [12, 0.5, -8]], face: 95, speaking: [[1, 5], [7, 11]], talking: true),
                        person(2, [[0, -0.5, 6], [12, -0.5, 6]], face: 125, mirrored: true, brightness: 0.9),
                    ],
                    duration: 12)
            ),
            (
                "crossing",
                scene(
                    "Two people cross; the nearer one, who speaks throughout, passes in front.",
                    people: [
                        person(1, [[0, -18], [1, -18], [7, 18], [8, 18]], face: 130, speaking: [[0, 8]]),
                        person(
                            2, [[0, 18], [1, 18], [7, -18], [8, -18]], face: 95, mirrored: true, brightness: 0.85),
                    ],
                    duration: 8)
            ),
            (
                "occlusion",
                scene(
                    "The person walks behind a pillar and comes out on the other side.",
                    people: [person(1, [[0, -14], [1, -14], [8, 14], [9, 14]])], duration: 9,
                    extras: ["occluders": [["yaw_deg": 0, "width_deg": 7]]])
            ),
            (
                "stranger",
                scene(
                    "The person turns away and walks out of the view; someone else comes in from there and "
                        + "talks; the first comes back facing the camera: two identities, never swapped.",
                    people: [
                        person(
                            1, [[0, -5], [1.5, -5], [4, -45], [8, -45], [10, -30], [12, -30]], turnedAway: [[1.5, 4]]),
                        person(
                            2, [[0, -50], [4.5, -50], [7, -12], [12, -12]], brightness: 0.9, speaking: [[5, 12]]),
                    ],
                    duration: 12)
            ),
            (
                "turning-away",
                scene(
                    "The person turns away for two seconds while walking.",
                    people: [person(1, [[0, -8], [1, -8], [7, 10], [8, 10]], turnedAway: [[3, 5]])], duration: 8)
            ),
            (
                "lighting",
                scene(
                    "The lights dim to a third and come back while the person walks.",
                    people: [person(1, walk)], duration: 12,
                    extras: ["lighting": [[0, 1], [3, 1], [6, 0.35], [9, 0.35], [11, 1]]])
            ),
            (
                "motion-blur",
                scene(
                    "A fast walk blurred as a 1/60 s exposure would blur it.",
                    people: [
                        person(1, [[0, 0], [0.5, 0], [2.5, 28, 1], [3, 28, 1], [7, -28, -1], [8, -28, -1]])
                    ], duration: 8,
                    extras: ["motion_blur": true])
            ),
            (
                "jpeg-noise",
                scene(
                    "A cheap webcam: heavy JPEG compression (quality 20) and sensor noise.",
                    people: [person(1, walk)], duration: 12, extras: ["jpeg_quality": 20, "noise_sigma": 6])
            ),
            (
                "small-faces",
                scene(
                    "A person far from the camera: a 40-pixel face walking.",
                    people: [
                        person(
                            1, [[0, 0], [1, 0], [5, 14, -2], [6, 14, -2], [10, -10, -2], [11, -10, -2]], face: 40)
                    ],
                    duration: 11)
            ),
        ] + roomScenes
    }

    public static func text(_ json: [String: Any]) -> String {
        let data =
            (try? JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Writes every scene into `directory`; returns the paths.
    public static func write(to directory: String) throws(SessionError) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            return try scenes.map { scene in
                let path = directory + "/" + scene.name + ".json"
                try text(scene.json).write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
        } catch {
            throw SessionError("cannot write the scene suite to \(directory): \(error.localizedDescription)")
        }
    }
}
