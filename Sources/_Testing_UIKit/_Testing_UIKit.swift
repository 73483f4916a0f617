// Swift Testing declares a cross-import overlay of Testing and UIKit (`_Testing_UIKit`, image attachments) that the
// toolchain ships only where Apple's UIKit exists: a test file importing both Testing and bgemu's UIKit looks for it.
// This empty module answers that lookup on Linux, so that such a file compiles with its imports unchanged.
