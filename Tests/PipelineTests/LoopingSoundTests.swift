import Audio
import DockCore
import Testing

@testable import Pipeline
@testable import Rigs

/// A looping scene's sound comes again with each pass, on one timeline with the frames.
@Suite(.tags(.unit)) struct LoopingSoundTests {
    @Test func theClipIsHeardAgainEachPassAfterSilence() {
        // One second of numbered samples at 1 kHz, in a pass of 1.5 s.
        let samples = (0..<1000).map { Float($0 + 1) }
        let input = LoopingClipInput(clip: AudioClip(sampleRate: 1000, channels: [samples, samples]), passSeconds: 1.5)
        var heard: [Float] = []
        var next = 0.0
        for now in [0.4, 1.2, 1.2, 3.2] {
            for block in input.blocks(until: MonotonicInstant(seconds: now), yaw: 0) {
                #expect(abs(block.start.seconds(since: .zero) - next) < 1e-9, "blocks follow one another")
                #expect(block.channels.count == 2 && block.channels[0] == block.channels[1])
                next += Double(block.channels[0].count) / 1000
                heard += block.channels[0]
            }
        }
        #expect(heard.count == 3200)
        #expect(Array(heard[0..<1000]) == samples && heard[1000..<1500].allSatisfy { $0 == 0 })
        #expect(Array(heard[1500..<2500]) == samples && heard[2500..<3000].allSatisfy { $0 == 0 })
        #expect(Array(heard[3000..<3200]) == Array(samples[0..<200]))
    }

    @Test func aClipLongerThanThePassIsCutAtItsEnd() {
        let samples = (0..<1000).map { Float($0) }
        let input = LoopingClipInput(clip: AudioClip(sampleRate: 1000, channels: [samples]), passSeconds: 0.6)
        let heard = input.blocks(until: MonotonicInstant(seconds: 1.5), yaw: 0).flatMap { $0.channels[0] }
        #expect(heard == Array(samples[0..<600]) + Array(samples[0..<600]) + Array(samples[0..<300]))
    }
}
