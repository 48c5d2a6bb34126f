import Bench
import DockCore
import Foundation
import SceneFiles
import Simulation
import TestSupport
import Testing

/// The label formats people's tools write, read into a recording's truth: on files the
/// reference tools wrote (motmetrics' MOT data, pyannote's RTTM) and on edge cases made here.
@Suite(.tags(.unit)) struct MOTLabelTests {
    let video = LabelledVideo(frameCount: 100, size: PixelSize(width: 640, height: 480), frameRate: 25)

    func refusal(_ text: String) -> String {
        do {
            _ = try MOTLabels.people(text, video: video)
            return "accepted"
        } catch { return error.description }
    }

    @Test func motmetricsGroundTruthIsReadPersonByPerson() throws {
        let text = try String(contentsOfFile: try Fixtures.mediaPath("motmetrics/TUD-Campus/gt.txt"), encoding: .utf8)
        let people = try MOTLabels.people(text, video: video)
        // 359 boxes of 8 people over frames 1–71 (checked against the file with another reader).
        #expect(people.map(\.id) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(people.map(\.keyframes.count) == [24, 48, 63, 71, 71, 9, 48, 25])
        #expect(people[6].keyframes.first?.frame == 23 && people[6].keyframes.last?.frame == 70)
        #expect(people[0].keyframes[0].face == PixelRect(x: 399, y: 182, width: 121, height: 229))
        #expect(people.allSatisfy { $0.hidden.isEmpty })
    }

    @Test func ignoredBoxesGapsAndPeopleLeavingAreKeptApart() throws {
        let people = try MOTLabels.people(
            """
            1,7,10,20,30,40,1,-1,-1,-1
            2,7,12,20,30,40,0,-1,-1,-1
            3,7,14,20,30,40,1,-1,-1,-1
            9,7,30,20,30,40,1,-1,-1,-1
            4 3 500 400 100 60 1
            5,3,700,400,30,40,1
            """, video: video)
        #expect(people.map(\.id) == [7, 3])
        // The confidence-0 box is left out, its frame hidden, as are the frames between 3 and 9.
        #expect(people[0].keyframes.map(\.frame) == [0, 2, 8] && people[0].hidden == [1...1, 3...7])
        // A box whose centre has left the picture is dropped, the person kept.
        #expect(people[1].keyframes.map(\.frame) == [3])
    }

    @Test func aBadLineIsNamedByItsLineAndField() {
        #expect(refusal("1,1,10,10,5,5\n2,1,abc,10,5,5") == "line 2, field 3 (x): 'abc' is not a number")
        #expect(refusal("1,1,10,10,5,5\n\n1,1,12,10,5,5").hasPrefix("line 3, field 2 (id): person 1 has a second box"))
        #expect(refusal("101,1,10,10,5,5").hasPrefix("line 1, field 1 (frame): 101 is not a frame of the video"))
        #expect(refusal("0,1,10,10,5,5").hasPrefix("line 1, field 1 (frame): 0 is not a frame of the video"))
        #expect(refusal("1,1,10,10,0,5") == "line 1, field 5 (width): a box needs a width above 0")
        #expect(refusal("1,1,10,10").hasPrefix("line 1, field 5 (width): a line has frame,id,x,y,width,height"))
        #expect(refusal("1,2.5,10,10,5,5").hasPrefix("line 1, field 2 (id): 2.5 is not a whole number"))
        #expect(refusal("").hasSuffix("has no box to score"))
    }
}

@Suite(.tags(.unit)) struct RTTMLabelTests {
    let video = LabelledVideo(frameCount: 900, size: PixelSize(width: 640, height: 480), frameRate: 30)

    @Test func pyannotesSampleGivesEachTurnToItsPerson() throws {
        let text = try String(contentsOfFile: try Fixtures.mediaPath("conversation/sample.rttm"), encoding: .utf8)
        let speech = try RTTMLabels.speech(text, speakers: ["speaker90": 1, "speaker91": 2], duration: video.duration)
        #expect(speech.count == 10 && Set(speech.map(\.id)) == [1, 2])
        #expect(speech[0].id == 1 && abs(speech[0].span.start - 6.69) < 1e-9 && abs(speech[0].span.end - 7.12) < 1e-9)
        // The last turn ends at 30 s, the video's end.
        #expect(speech.map(\.span.end).max() == 30)
    }

    @Test func otherLinesAreSkippedAndBadOnesNamed() throws {
        let speech = try RTTMLabels.speech(
            """
            ;; a comment
            SPKR-INFO meeting 1 <NA> <NA> <NA> unknown alice <NA> <NA>
            SPEAKER meeting 1 1.5 2.0 <NA> <NA> alice <NA> <NA>
            """, speakers: ["alice": 4], duration: video.duration)
        #expect(speech.count == 1 && speech[0].id == 4 && speech[0].span == TimeSpan(1.5, 3.5))
        func refusal(_ line: String) -> String {
            do {
                _ = try RTTMLabels.speech(line, speakers: ["alice": 4], duration: video.duration)
                return "accepted"
            } catch { return error.description }
        }
        #expect(
            refusal("SPEAKER m 1 1.0 2.0 <NA> <NA> bob <NA> <NA>")
                == "line 1, field 8 (name): speaker bob is given to no person (rttm_speakers has alice)")
        #expect(
            refusal("SPEAKER m 1 1.0 -2 <NA> <NA> alice <NA> <NA>")
                == "line 1, field 5 (duration): a turn lasts more than 0 s")
        #expect(refusal("SPEAKER m 1 soon 2 <NA> <NA> alice") == "line 1, field 4 (start): 'soon' is not a number")
        #expect(
            refusal("SPEAKER m 1 31 2 <NA> <NA> alice").hasPrefix(
                "line 1, field 4 (start): 31 s is after the video's end"))
        #expect(refusal("SPEAKER m 1 1 2").hasPrefix("line 1, field 6 (orthography): a SPEAKER line has ten fields"))
    }
}

@Suite(.tags(.unit)) struct AVALabelTests {
    let video = LabelledVideo(frameCount: 60, size: PixelSize(width: 400, height: 200), frameRate: 20)

    /// Two faces at 20 labelled instants a second from 900 s of the film, as AVA writes them:
    /// the first speaks from 900.2 to 900.9 s, the second says nothing it can hear.
    func sample() -> String {
        var lines: [String] = []
        for step in 0..<40 {
            let t = 900 + Double(step) * 0.05
            let speaking = t >= 900.2 - 1e-9 && t <= 900.9 + 1e-9
            lines.append(
                String(
                    format: "film_0900_0960,%.2f,0.1,0.2,0.3,0.6,%@,film_0900_0960:1", t,
                    speaking ? "SPEAKING_AUDIBLE" : "NOT_SPEAKING"))
            if step < 30 {
                lines.append(
                    String(
                        format: "film_0900_0960,%.2f,0.6,0.2,0.8,0.7,%@,film_0900_0960:7", t,
                        step % 2 == 0 ? "SPEAKING_NOT_AUDIBLE" : "NOT_SPEAKING"))
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func facesAndAudibleSpeechBecomePeopleAndTurns() throws {
        let labels = try AVALabels.read(sample(), video: video)
        #expect(labels.entities == ["film_0900_0960:1": 1, "film_0900_0960:7": 2])
        #expect(labels.people.map(\.keyframes.count) == [40, 30])
        #expect(labels.people[0].keyframes[0].face == PixelRect(x: 40, y: 40, width: 80, height: 80))
        #expect(labels.people[1].keyframes.last?.frame == 29)
        // One run, each instant standing for the 50 ms around it.
        #expect(labels.speech.count == 1 && labels.speech[0].id == 1)
        #expect(abs(labels.speech[0].span.start - 0.175) < 1e-6 && abs(labels.speech[0].span.end - 0.925) < 1e-6)
        // The video starts at 901 s of the film: the first second of labels is outside it.
        #expect(throws: LabelFileError.self) { try AVALabels.read(sample(), start: 901, video: video) }
    }

    @Test func aBadLineIsNamedByItsLineAndField() {
        func refusal(_ text: String) -> String {
            do {
                _ = try AVALabels.read(text, video: video)
                return "accepted"
            } catch { return error.description }
        }
        let good = "v,900.0,0.1,0.2,0.3,0.6,NOT_SPEAKING,v:1"
        #expect(
            refusal(good + "\nw,900.1,0.1,0.2,0.3,0.6,NOT_SPEAKING,w:1").hasPrefix(
                "line 2, field 1 (video_id): w is a second video"))
        #expect(
            refusal(good + "\nv,900.1,0.1,0.2,0.3,0.6,LAUGHING,v:1").hasPrefix(
                "line 2, field 7 (label): LAUGHING is not one of"))
        #expect(
            refusal("v,900.0,0.1,0.2,1.3,0.6,NOT_SPEAKING,v:1").hasPrefix("line 1, field 5 (x2): 1.3 is outside 0…1"))
        #expect(refusal("v,900.0,0.3,0.2,0.1,0.6,NOT_SPEAKING,v:1") == "line 1, field 5 (x2): x2 must be right of x1")
        #expect(
            refusal("v,soon,0.1,0.2,0.3,0.6,NOT_SPEAKING,v:1")
                == "line 1, field 2 (frame_timestamp): 'soon' is not a number")
        #expect(refusal("v,900.0,0.1,0.2").hasPrefix("line 1, field 5 (x2): a line has the eight AVA fields"))
    }
}
