// The API module; see style.md.
