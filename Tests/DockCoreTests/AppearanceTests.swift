import DockCore
import TestSupport
import Testing

@Suite(.tags(.unit)) struct AppearanceTests {
    @Test func distanceIsZeroForTheSameLookAndOneForDisjointOnes() throws {
        let a = Appearance(parts: [[4, 4, 0, 0], [1, 1]])
        let scaled = Appearance(parts: [[1, 1, 0, 0], [5, 5]])  // histograms are normalized
        #expect(try #require(a.distance(to: scaled)) < 1e-6)
        let disjoint = Appearance(parts: [[0, 0, 3, 1], [1, 1]])
        #expect(abs(try #require(a.distance(to: disjoint)) - 1) < 1e-6)
    }

    @Test func theLargestPartDecides() throws {
        // Alike in colour, unlike in brightness: as far apart as the brightness says.
        let a = Appearance(parts: [[1, 0], [1, 1]])
        let b = Appearance(parts: [[1, 1], [1, 1]])
        let brightnessOnly = try #require(Appearance(parts: [[1, 0]]).distance(to: Appearance(parts: [[1, 1]])))
        #expect(abs(try #require(a.distance(to: b)) - brightnessOnly) < 1e-6)
    }

    @Test func partsNotSeenOnBothSidesAreLeftOut() throws {
        let withTorso = Appearance(parts: [[1, 0], [0, 1]])
        let faceOnly = Appearance(parts: [[1, 0], []])
        #expect(try #require(withTorso.distance(to: faceOnly)) < 1e-6)
        #expect(Appearance(parts: [[], []]).distance(to: withTorso) == nil)
    }

    @Test func blendingIsARunningMeanThatFillsMissingParts() {
        let a = Appearance(parts: [[1, 0], []])
        let b = Appearance(parts: [[0, 1], [1, 1]])
        #expect(a.blended(with: b, weight: 0.25) == Appearance(parts: [[0.75, 0.25], [1, 1]]))
    }
}
