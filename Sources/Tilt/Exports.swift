// The card stands on Motion: an app that imports Tilt sees both.
@_exported import Motion
