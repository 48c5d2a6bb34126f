import DockCore

/// The astronaut's face in scikit-image's astronaut.png (512×512), labelled by hand.
enum AstronautLabel {
    static let face = PixelRect(x: 172, y: 52, width: 104, height: 128)
}
