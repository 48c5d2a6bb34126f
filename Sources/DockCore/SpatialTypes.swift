// Angles and rotations live in `Spatial`, the module Apple's programs import for them; every
// module of the house that imports the core sees them too.
@_exported import Spatial
