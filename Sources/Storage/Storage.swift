// The Storage module; see style.md.
