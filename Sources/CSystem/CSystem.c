// The C target needs one source file; all it offers is in include/CSystem.h.
