/// How a microphone named on the command line is opened. A bare card number opens that card
/// shared: through ALSA's `dsnoop` (which lets any number of programs capture from one device at
/// once, so a meeting app keeps its microphone) under the converting `plug` layer (which gives
/// OpenDock its 48 kHz 16-bit stereo whatever the card runs at). Any other name is ALSA's own:
/// `default` under PipeWire or PulseAudio, `plughw:CARD=C920` to hold the card alone.
public enum CaptureDeviceName {
    public static func resolve(_ text: String) -> String {
        guard !text.isEmpty, text.allSatisfy(\.isNumber) else { return text }
        return "plug:'dsnoop:CARD=\(text),DEV=0'"
    }
}
