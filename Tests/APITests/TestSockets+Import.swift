// The test targets' one socket client (`RawSocket`, `HTTPTestConnection`), seen by every file of this target.
@_exported import TestSockets
