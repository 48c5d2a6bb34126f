// Choosing whom the dock frames from its tracking states, three ways: the most salient subject,
// everyone looking at the camera, or whoever is speaking. System tracking stays on; the program
// only selects. It runs a recipe for a while and leaves the selection as the recipe last made it.
//   example-subject-selection salient|engaged|speaker [SECONDS]
import DockKit
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let recipe = arguments.first ?? "salient"
let seconds = arguments.dropFirst().first.flatMap(Double.init) ?? 5

func trackMostSalient(accessory: DockAccessory) async throws {
    guard #available(iOS 18.0, *) else { return }

    for await state in try accessory.trackingStates {
        // The subject ranked first by saliency.
        let primary = state.trackedSubjects.first { subject in
            switch subject {
            case .person(let person):
                return person.saliencyRank == 1
            case .object(let object):
                return object.saliencyRank == 1
            }
        }

        if let primary {
            let id: UUID
            switch primary {
            case .person(let person): id = person.identifier
            case .object(let object): id = object.identifier
            }
            try await accessory.selectSubjects([id])
        }
    }
}

func trackEngagedSubjects(accessory: DockAccessory) async throws {
    guard #available(iOS 18.0, *) else { return }

    for await state in try accessory.trackingStates {
        let engaged = state.trackedSubjects.compactMap { subject -> UUID? in
            guard case .person(let person) = subject,
                let confidence = person.lookingAtCameraConfidence,
                confidence > 0.7
            else { return nil }
            return person.identifier
        }
        if !engaged.isEmpty {
            try await accessory.selectSubjects(engaged)
        }
    }
}

/// Frames whoever speaks most surely, and keeps them framed until someone else does.
func followSpeaker(accessory: DockAccessory) async throws {
    var current: UUID?
    let started = Date()
    for await state in try accessory.trackingStates {
        var loudest: (id: UUID, confidence: Double, rect: CGRect)?
        for subject in state.trackedSubjects {
            guard case .person(let person) = subject, let speaking = person.speakingConfidence, speaking > 0.6 else {
                continue
            }
            if speaking > loudest?.confidence ?? 0 { loudest = (person.identifier, speaking, person.rect) }
        }
        guard let speaker = loudest, speaker.id != current else { continue }
        current = speaker.id
        try await accessory.selectSubjects([speaker.id])
        print(
            String(
                format: "%5.1f s: speaker %@ selected (speaking %.2f, at x %.2f)", Date().timeIntervalSince(started),
                String(speaker.id.uuidString.prefix(8)), speaker.confidence, speaker.rect.midX))
    }
}

print("waiting for a dock…")
var docked: DockAccessory?
for await change in try DockAccessoryManager.shared.accessoryStateChanges where change.state == .docked {
    docked = change.accessory
    break
}
guard let accessory = docked else { fatalError("the accessory stream ended") }
print("docked:", accessory.identifier.name)

let work = Task {
    switch recipe {
    case "salient": try await trackMostSalient(accessory: accessory)
    case "engaged": try await trackEngagedSubjects(accessory: accessory)
    case "speaker": try await followSpeaker(accessory: accessory)
    default: print("unknown recipe \(recipe): use salient, engaged or speaker")
    }
}
try await Task.sleep(for: .seconds(seconds))
work.cancel()
if case .failure(let error) = await work.result { print("the recipe failed:", error) }

// What the dock saw last, as the recipe saw it.
for await state in try accessory.trackingStates {
    for subject in state.trackedSubjects {
        if case .person(let person) = subject {
            print(
                String(
                    format: "person %@ rank %d speaking %.2f looking %.2f",
                    String(person.identifier.uuidString.prefix(8)),
                    person.saliencyRank ?? 0, person.speakingConfidence ?? -1, person.lookingAtCameraConfidence ?? -1))
        }
    }
    break
}
