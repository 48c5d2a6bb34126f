// The scene's description (people, paths, speech, room) is what a simulation renders: a
// program that imports Simulation names those values too.
@_exported import SceneModel
