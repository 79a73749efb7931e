package sanitize

// Refusals applies the refuse rules (docs/specs/sanitizer.md 6.1) to text
// and returns each rule that fires, once, at its first offset, in the order
// of the offsets. It returns nil when none fires.
func Refusals(text string) []Finding {
	return nil
}

// Flags applies the flag rules (docs/specs/sanitizer.md 6.3) to text after
// normalising it and returns each rule that fires, once, in the order of
// the offsets. It returns nil when none fires.
func Flags(text string) []Finding {
	return nil
}
